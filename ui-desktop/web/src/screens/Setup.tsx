/**
 * Run setup: suite, tests, runtimes and settings, the way `wasmeter run` takes them.
 * Renders at once with placeholders; the catalog fills in as list_suites/list_runtimes
 * answer. Start stays disabled with a reason until the selection can run. Runtimes a
 * suite does not apply to (native and CLIs for the lifecycle suite, embedded engines for
 * the servers suite, the container variant outside the gateway suite) are shown disabled with
 * core's reason, from `list_runtimes`. Each cell runs in several fresh worker processes
 * (invocations), each with its warm-ups and runs, the cells' invocations interleaved in a
 * shuffled order by default. Every setting shows core's default for the suite (from
 * `list_suites`: its kind's repetition, its own timeout) until changed, and only what was
 * changed is sent: core decides the rest. Changing to a suite of another kind drops the
 * repetition typed for the last one; a timeout typed holds for every suite until emptied.
 * HTTP suites (gateway, servers) add the load: concurrency levels, seconds per level and
 * of the latency measurement. The user's own modules ("Add modules…", the open-file dialog)
 * are listed next to the suites as the suite `modules`, with the options `wasmeter run
 * FILE.wasm` takes; the backend checks them (`check_modules`) into tests, and says which
 * runtimes cannot run them and why, as for any suite.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type {
  Measure,
  ModulesRequest,
  ModulesSuite,
  PairMode,
  RunChoices,
  RunOrder,
  RunPolicy,
  RuntimeView,
  Size,
  SuiteInfo,
  SuiteKind,
} from '../api';
import * as api from '../api';
import { ConfirmDialog } from '../components/Modal';
import { showError } from '../errors';
import { parseIntField, parseNumberField, U32_MAX } from '../fields';
import { parseCounts, parseSecondsMs } from '../http';
import { useRestingCheck } from '../load';
import { addPaths, baseName, MODULES_SUITE, type ModuleOptionsText, modulesRequest, NO_OPTIONS } from '../modules';
import { shapeOf } from '../shape';

interface SetupProps {
  runtimes: RuntimeView[] | null;
  suites: SuiteInfo[] | null;
  /** Core's policy constants (what a diff's verdict needs); null while loading. */
  policy: RunPolicy | null;
  /** A run is in flight. */
  busy: boolean;
  /** Starts a run of `suite`; of the modules given by path when `modules` is given. */
  onStart: (suite: string, choices: RunChoices, modules?: ModulesRequest) => void;
  /** How long the options rest before they are checked again, ms. */
  checkDelayMs?: number;
}

/** Kinds in the order they are listed. */
const KIND_ORDER = ['native', 'embedded', 'cli'];

const KIND_TITLE: Record<string, string> = {
  native: 'Native (baseline)',
  embedded: 'Embedded engines',
  cli: 'External CLIs',
};

/** Why core says a runtime cannot run a suite, or null if it can. */
export function notApplicable(r: RuntimeView, suite: string): string | null {
  return r.not_applicable[suite] ?? null;
}

/** Available and applicable to a suite. */
function usable(r: RuntimeView, suite: string): boolean {
  return r.unavailable === null && notApplicable(r, suite) === null;
}

/**
 * Default selection: core's for the suite (`preselected` of each runtime, from
 * `runner::preselected`): native and the embedded engines where available and applicable,
 * else native and the CLIs. The page keeps no rule of its own.
 */
export function defaultRuntimes(runtimes: readonly RuntimeView[], suite: string): Set<string> {
  return new Set(runtimes.filter((r) => r.preselected.includes(suite)).map((r) => r.id));
}

/**
 * Default baseline: the suite's (core's default, native) where it applies, else the first
 * runtime selected (the lifecycle suite has no native).
 */
export function defaultBaseline(runtimes: readonly RuntimeView[], selected: ReadonlySet<string>, suite: SuiteInfo): string {
  const d = suite.defaults.baseline;
  if (runtimes.some((r) => r.id === d && usable(r, suite.name))) return d;
  return (runtimes.find((r) => selected.has(r.id) && usable(r, suite.name)) ?? runtimes.find((r) => usable(r, suite.name)))?.id ?? '';
}

const KIND_WORD: Record<string, string> = { native: 'Native', embedded: 'embedded', cli: 'CLIs' };

/** The default selection's button: "Native + embedded", "Native + CLIs", "Embedded". */
function defaultGroupLabel(runtimes: readonly RuntimeView[], selection: ReadonlySet<string>): string {
  const kinds = KIND_ORDER.filter((k) => runtimes.some((r) => r.kind === k && selection.has(r.id)));
  const label = kinds.map((k) => KIND_WORD[k] ?? k).join(' + ');
  return label ? label[0]!.toUpperCase() + label.slice(1) : 'Default';
}

interface NumField {
  key: string;
  label: string;
  value: string;
  set: (v: string) => void;
  /** The CLI's flag, which core's refusal of the value names. */
  flag: string;
  /** The largest the setting's type holds: the range is core's (model::limits, through plan_scope). */
  typeMax: number;
  testid: string;
  unit?: string;
  /** Empty means "not set" (the placeholder's value is used). */
  optional?: boolean;
  placeholder?: string;
}

/** A field's text is a whole number, or empty where that is allowed (whether it is in range is core's to say). */
function validField(f: NumField): boolean {
  return (f.optional === true && f.value.trim() === '') || parseIntField(f.value, 0, f.typeMax) !== null;
}

/** The settings swept, one `ENGINE.NAME=V1,V2` a line, blank lines left out. */
export function sweepLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/**
 * The pair as typed, split into its arms (null when empty). Whether they make a pair is
 * core's to say (`runner::parse_pair` and the plan, through plan_scope): the page keeps no
 * rule of its own, so it says what the CLI and the TUI say.
 */
export function splitPair(text: string): string[] | null {
  const arms = text
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  return arms.length === 0 ? null : arms;
}

/** A suite of modules given by path as the setup lists it (its runtimes' reasons apart). */
function modulesInfo(m: ModulesSuite): SuiteInfo {
  const { not_applicable: _, ...info } = m;
  return info;
}

export function Setup({ runtimes: listedRuntimes, suites: listedSuites, policy, busy, onStart, checkDelayMs = 250 }: SetupProps) {
  /** Modules given by path, their options as typed, and the backend's answer for them. */
  const [modulePaths, setModulePaths] = useState<string[]>([]);
  const [moduleOptions, setModuleOptions] = useState<ModuleOptionsText>(NO_OPTIONS);
  const parsedModules = useMemo(() => modulesRequest(modulePaths, moduleOptions), [modulePaths, moduleOptions]);
  const modulesKey = 'request' in parsedModules ? JSON.stringify(parsedModules.request) : null;
  // The backend checks what only the machine knows (files, folders, programs), once the
  // options rest; an answer for options since changed is dropped.
  const checked = useRestingCheck(
    modulePaths.length > 0 ? modulesKey : null,
    () => ('request' in parsedModules ? api.checkModules(parsedModules.request) : Promise.reject(new Error(parsedModules.error))),
    checkDelayMs,
  );
  /** The last answer that listed the modules (kept while options are rechecked). */
  const [modulesSuite, setModulesSuite] = useState<ModulesSuite | null>(null);
  useEffect(() => {
    if (checked?.value) setModulesSuite(checked.value);
  }, [checked]);
  const modulesError =
    modulePaths.length === 0 ? null : 'error' in parsedModules ? parsedModules.error : checked?.key === modulesKey ? checked.error : null;
  const modulesReady = modulePaths.length > 0 && checked !== null && checked.key === modulesKey && checked.value !== null;

  const suites = useMemo(
    () => (listedSuites && modulePaths.length > 0 && modulesSuite ? [...listedSuites, modulesInfo(modulesSuite)] : listedSuites),
    [listedSuites, modulesSuite, modulePaths.length > 0],
  );
  const runtimes = useMemo(
    () =>
      listedRuntimes && modulesSuite
        ? listedRuntimes.map((r) => {
            const why = modulesSuite.not_applicable[r.id];
            return why ? { ...r, not_applicable: { ...r.not_applicable, [MODULES_SUITE]: why } } : r;
          })
        : listedRuntimes,
    [listedRuntimes, modulesSuite],
  );

  const [suite, setSuiteState] = useState('');
  /** The suite as last chosen, for effects that run before the render that shows it. */
  const suiteRef = useRef('');
  const setSuite = (name: string) => {
    suiteRef.current = name;
    setSuiteState(name);
  };
  const [tests, setTests] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  /** The kind of suite the runtime selection and baseline were defaulted for. */
  const [defaultsFor, setDefaultsFor] = useState<SuiteKind | null>(null);
  // Each setting is null (or the timeout empty) until the user changes it: it then shows
  // core's default for the suite and is left out of the settings sent.
  const [size, setSize] = useState<Size | null>(null);
  const [runs, setRuns] = useState<string | null>(null);
  const [warmup, setWarmup] = useState<string | null>(null);
  const [invocations, setInvocations] = useState<string | null>(null);
  const [order, setOrder] = useState<RunOrder | null>(null);
  const [timeout, setTimeoutSecs] = useState('');
  const [memCap, setMemCap] = useState<string | null>(null);
  const [sampleMs, setSampleMs] = useState<string | null>(null);
  const [baseline, setBaseline] = useState('');
  const [label, setLabel] = useState('');
  const [skipMissing, setSkipMissing] = useState(false);
  const [profile, setProfile] = useState(false);
  const [levels, setLevels] = useState<string | null>(null);
  const [levelSecs, setLevelSecs] = useState<string | null>(null);
  const [latencySecs, setLatencySecs] = useState<string | null>(null);
  const [rates, setRates] = useState<string | null>(null);
  const [sloMs, setSloMs] = useState<string | null>(null);
  const [seed, setSeed] = useState('');
  const [measure, setMeasure] = useState<Measure | null>(null);
  const [pair, setPair] = useState('');
  const [pairMode, setPairMode] = useState<PairMode | null>(null);
  const [precisionPct, setPrecisionPct] = useState('');
  // Engine settings to sweep, one `ENGINE.NAME=V1,V2` a line (`run --set`); core checks them
  // when the run is planned.
  const [sweepText, setSweepText] = useState('');
  const [budgetSecs, setBudgetSecs] = useState('');
  /** The defaults (as JSON) invocations, warm-up and runs were typed over. */
  const [repetitionOf, setRepetitionOf] = useState<string | null>(null);

  const current = suites?.find((s) => s.name === suite) ?? null;
  const kind = current?.kind ?? null;
  const d = current?.defaults ?? null;
  const shape = shapeOf(kind);
  const http = shape.http;

  // Each kind of suite has its own repetition (an HTTP iteration loads a server for
  // seconds: one run in each of three fresh processes, no warm-up): what was typed over
  // other defaults gives way to this suite's.
  const repetitionKey = d ? JSON.stringify(d.repetition) : null;
  useEffect(() => {
    if (repetitionKey === repetitionOf) return;
    setRuns(null);
    setWarmup(null);
    setInvocations(null);
    setRepetitionOf(repetitionKey);
  }, [repetitionKey]);

  // Pick the compute suite (else the first that loads) once suites arrive; select all its
  // tests. A broken suite is listed, never picked.
  useEffect(() => {
    const usable = suites?.filter((x) => !x.error) ?? [];
    if (usable.length === 0 || current) return;
    const s = usable.find((x) => x.name === 'compute') ?? usable[0]!;
    setSuite(s.name);
    setTests(new Set(s.tests.map((t) => t.name)));
  }, [suites]);

  // Default runtimes and baseline once runtimes arrive, and again when the kind of suite
  // changes (compute → lifecycle and back); suites of the same kind keep the selection.
  useEffect(() => {
    if (!runtimes || !current || (chosen !== null && defaultsFor === kind)) return;
    const selection = defaultRuntimes(runtimes, current.name);
    setChosen(selection);
    setBaseline(defaultBaseline(runtimes, selection, current));
    setDefaultsFor(kind);
  }, [runtimes, kind]);

  const pickSuite = (name: string) => {
    setSuite(name);
    const s = suites?.find((x) => x.name === name);
    setTests(new Set(s?.tests.map((t) => t.name) ?? []));
    setFilter('');
  };

  // Modules added or removed: every module is a selected test.
  const moduleTests = modulesSuite?.tests.map((t) => t.name).join('\n') ?? '';
  useEffect(() => {
    if (suiteRef.current === MODULES_SUITE && modulesSuite) setTests(new Set(modulesSuite.tests.map((t) => t.name)));
  }, [moduleTests]);

  const addModules = (what: 'modules' | 'folder') => {
    api
      .pickPaths(what)
      .then((picked) => {
        if (picked.length === 0) return;
        setModulePaths((there) => addPaths(there, picked));
        setSuite(MODULES_SUITE);
        setFilter('');
        if (modulesSuite) setTests(new Set(modulesSuite.tests.map((t) => t.name)));
      })
      .catch(showError);
  };

  const removeModule = (path: string) => {
    const rest = modulePaths.filter((p) => p !== path);
    setModulePaths(rest);
    if (rest.length > 0) return;
    setModulesSuite(null);
    const first = listedSuites?.find((x) => !x.error && x.name === 'compute') ?? listedSuites?.find((x) => !x.error);
    if (suite === MODULES_SUITE) {
      setSuite(first?.name ?? '');
      setTests(new Set(first?.tests.map((t) => t.name) ?? []));
    }
  };

  const setOption = (key: keyof ModuleOptionsText, value: string) => setModuleOptions((o) => ({ ...o, [key]: value }));
  const browse = (key: 'stdin' | 'expect' | 'native' | 'dirs') => {
    api
      .pickPaths(key === 'dirs' ? 'folder' : 'file')
      .then((picked) => {
        const p = picked[0];
        if (p === undefined) return;
        setModuleOptions((o) => ({ ...o, [key]: key === 'dirs' && o.dirs.trim() ? `${o.dirs.trimEnd()}\n${p}` : p }));
      })
      .catch(showError);
  };
  const modules = suite === MODULES_SUITE;

  const visibleTests = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const all = current?.tests ?? [];
    if (!q) return all;
    return all.filter(
      (t) => t.name.toLowerCase().includes(q) || t.description.toLowerCase().includes(q) || t.tags.some((g) => g.toLowerCase().includes(q)),
    );
  }, [current, filter]);

  const toggle = <T,>(set: Set<T>, v: T, on: boolean): Set<T> => {
    const n = new Set(set);
    if (on) n.add(v);
    else n.delete(v);
    return n;
  };

  const setVisibleTests = (on: boolean) =>
    setTests((s) => {
      const n = new Set(s);
      for (const t of visibleTests) {
        if (on) n.add(t.name);
        else n.delete(t.name);
      }
      return n;
    });

  const available = (runtimes ?? []).filter((r) => usable(r, suite));
  const groups = useMemo(() => {
    const by = new Map<string, RuntimeView[]>();
    for (const r of runtimes ?? []) {
      const list = by.get(r.kind) ?? [];
      list.push(r);
      by.set(r.kind, list);
    }
    const kinds = [...by.keys()].sort((a, b) => {
      const ia = KIND_ORDER.indexOf(a);
      const ib = KIND_ORDER.indexOf(b);
      return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
    });
    return kinds.map((k) => ({ kind: k, runtimes: by.get(k)! }));
  }, [runtimes]);

  /** Selects one kind (with the baseline, so ratios can be computed), or all. */
  const selectGroup = (group: 'embedded' | 'cli' | 'all' | 'none') => {
    if (group === 'none') return setChosen(new Set());
    const ids = available.filter((r) => group === 'all' || r.kind === group).map((r) => r.id);
    if (group !== 'all' && available.some((r) => r.id === baseline)) ids.push(baseline);
    setChosen(new Set(ids));
  };

  const selectedRuntimes = available.filter((r) => chosen?.has(r.id)).map((r) => r.id);
  // Modules have no native build unless given one: then, as core does, the first runtime
  // selected is the baseline unless another one that runs them is picked.
  const shownBaseline = modules && !available.some((r) => r.id === baseline) ? (selectedRuntimes[0] ?? baseline) : baseline;
  const selectedTests = (current?.tests ?? []).filter((t) => tests.has(t.name)).map((t) => t.name);

  /** What a setting shows: as typed, else core's default for the suite (empty until known). */
  const shown = (typed: string | null, fallback: number | string | undefined) => typed ?? (fallback === undefined ? '' : String(fallback));
  const runsText = shown(runs, d?.repetition.runs);
  const warmupText = shown(warmup, d?.repetition.warmup);
  const pairArms = splitPair(pair);
  // With arms to pair, core makes its paired rounds (20 for command suites) unless typed.
  const invocationsText = shown(invocations, pairArms !== null ? d?.pair_invocations : d?.repetition.invocations);
  const fields: NumField[] = [
    { key: 'runs', label: 'Runs', value: runsText, set: setRuns, flag: '--runs', typeMax: U32_MAX, testid: 'setting-runs' },
    { key: 'warmup', label: 'Warm-up', value: warmupText, set: setWarmup, flag: '--warmup', typeMax: U32_MAX, testid: 'setting-warmup' },
    {
      key: 'invocations',
      label: 'Invocations',
      value: invocationsText,
      set: setInvocations,
      flag: '--invocations',
      typeMax: U32_MAX,
      testid: 'setting-invocations',
    },
    {
      key: 'timeout',
      label: 'Timeout',
      value: timeout,
      set: setTimeoutSecs,
      flag: '--timeout',
      typeMax: Number.MAX_SAFE_INTEGER,
      testid: 'setting-timeout',
      unit: 's',
      optional: true,
      placeholder: d ? String(d.timeout_secs) : '',
    },
    {
      key: 'mem',
      label: 'Memory cap',
      value: shown(memCap, d?.memory_cap_mib),
      set: setMemCap,
      flag: '--memory-mib',
      typeMax: Number.MAX_SAFE_INTEGER,
      testid: 'setting-memory',
      unit: 'MiB',
    },
    {
      key: 'sample',
      label: 'Sample interval',
      value: shown(sampleMs, d?.sample_interval_ms),
      set: setSampleMs,
      flag: '--sample-ms',
      typeMax: Number.MAX_SAFE_INTEGER,
      testid: 'setting-sample',
      unit: 'ms',
    },
  ];
  const invalid = fields.find((f) => !validField(f));
  const levelsText = shown(levels, d?.http?.levels.join(', '));
  const levelSecsText = shown(levelSecs, d?.http ? d.http.duration_ms / 1000 : undefined);
  const latencySecsText = shown(latencySecs, d?.http ? d.http.latency_ms / 1000 : undefined);
  // Text to numbers only: their ranges are core's (model::limits), refused through
  // plan_scope in the CLI's and the TUI's words.
  const httpLevels = parseCounts(levelsText);
  const httpDurationMs = parseSecondsMs(levelSecsText);
  const httpLatencyMs = parseSecondsMs(latencySecsText);
  const httpInvalid = !http
    ? null
    : httpLevels === null
      ? 'Concurrency levels must be whole numbers, separated by commas.'
      : httpDurationMs === null
        ? 'Seconds per level must be a number.'
        : httpLatencyMs === null
          ? 'Latency seconds must be a number.'
          : null;

  const ratesText = shown(rates, d?.http?.rates?.join(', '));
  const sloText = shown(sloMs, d?.http?.slo_p99_ms);
  const httpRates = parseCounts(ratesText);
  const httpSlo = parseNumberField(sloText, 0, Number.MAX_VALUE);
  const seedValue = seed.trim() === '' ? null : parseIntField(seed, 0, Number.MAX_SAFE_INTEGER);
  // A percentage, or `off` for no precision at all (not even core's default).
  const precisionOff = precisionPct.trim().toLowerCase() === 'off';
  // Any number is sent: whether it is a percentage the run can aim at is core's rule
  // (Precision::check, through plan_scope), refused in the CLI's and the TUI's words.
  const precision = precisionPct.trim() === '' || precisionOff ? null : parseNumberField(precisionPct, 0, Number.MAX_VALUE);
  const budget = budgetSecs.trim() === '' ? null : parseIntField(budgetSecs, 0, Number.MAX_SAFE_INTEGER);
  // Core's default precision for the suite's kind, which a run whose rounds are left to
  // core aims at (RunChoices::precision_in decides whether they are).
  const defaultPrecision = d?.precision ?? null;
  const choicesInvalid =
    http && httpRates === null
      ? 'Offered rates must be whole numbers of requests/s, separated by commas, or none.'
      : http && httpSlo === null
        ? 'The p99 objective must be a number of milliseconds.'
        : seed.trim() !== '' && seedValue === null
          ? 'The seed must be a whole number.'
          : precisionPct.trim() !== '' && !precisionOff && precision === null
            ? 'Precision must be a number (a percentage), or off.'
            : budgetSecs.trim() !== '' && budget === null
              ? 'The budget must be a whole number of seconds.'
              : budgetSecs.trim() !== '' && precision === null && (precisionOff || defaultPrecision === null)
                ? 'A budget needs a precision to aim at.'
                : null;

  const reason = busy
    ? 'A run is in progress.'
    : !suites
      ? 'Loading suites…'
      : !runtimes
        ? 'Loading runtimes…'
        : modules && modulesError
          ? modulesError
          : modules && !modulesReady
            ? 'Checking the modules…'
            : !current
              ? 'Pick a suite.'
              : selectedTests.length === 0
                ? 'Select at least one test.'
                : selectedRuntimes.length === 0
                  ? 'Select at least one available runtime.'
                  : invalid
                    ? `${invalid.label} must be a whole number.`
                    : (httpInvalid ?? choicesInvalid);

  /** The run's choices as they stand (null while something blocks a start). */
  const choicesNow = (): RunChoices | null => {
    if (reason || !current) return null;
    const num = (text: string) => parseIntField(text, 0, Number.MAX_SAFE_INTEGER)!;
    const choices: RunChoices = {
      // Every test selected is sent as "all", as the CLI does without --tests.
      tests: selectedTests.length === current.tests.length ? [] : selectedTests,
      runtimes: selectedRuntimes,
      baseline: shownBaseline,
      skip_missing: skipMissing,
      settings: sweepLines(sweepText),
      yes: false,
      precision_off: false,
    };
    // Sampled at core's default rate; offered for command suites only (core says why not
    // elsewhere, in one line).
    if (profile && shape.profiles) choices.profile = current.defaults.profile_hz;
    // What was left alone is left out: core decides it as for any front end.
    if (warmup !== null) choices.warmup = num(warmup);
    if (runs !== null) choices.runs = num(runs);
    if (invocations !== null) choices.invocations = num(invocations);
    if (order !== null) choices.order = order;
    if (timeout.trim() !== '') choices.timeout_secs = num(timeout);
    if (size !== null) choices.size = size;
    if (memCap !== null) choices.memory_cap_mib = num(memCap);
    if (sampleMs !== null) choices.sample_interval_ms = num(sampleMs);
    if (label.trim()) choices.label = label.trim();
    if (seedValue !== null) choices.seed = seedValue;
    if (measure !== null) choices.measure = measure;
    if (pairArms !== null) choices.pair = pairArms;
    if (pairArms !== null && pairMode !== null) choices.pair_mode = pairMode;
    if (precisionOff) choices.precision_off = true;
    const aim = precision ?? (budget !== null && !precisionOff ? (defaultPrecision?.pct ?? null) : null);
    if (aim !== null) choices.precision = budget === null ? { pct: aim } : { pct: aim, budget_secs: budget };
    const loadTyped = [levels, levelSecs, latencySecs, rates, sloMs].some((t) => t !== null);
    if (http && d?.http && loadTyped && httpLevels && httpDurationMs !== null && httpLatencyMs !== null && httpRates && httpSlo !== null) {
      choices.http = {
        ...d.http,
        levels: httpLevels,
        duration_ms: httpDurationMs,
        latency_ms: httpLatencyMs,
        rates: httpRates,
        slo_p99_ms: httpSlo,
      };
    }
    return choices;
  };
  const choices = choicesNow();
  // Not while a run is in flight: planning detects the runtimes (their processes would
  // run beside the cells being measured).
  const choicesKey = choices && current && !modules && !busy ? `${current.name}:${JSON.stringify(choices)}` : null;
  // What the run would do and how long it should take, asked once the choices rest; an
  // answer for choices since changed is dropped.
  // Core refusing the choices (a bad pair, a runtime that cannot run the suite) is the
  // line start_run would give, shown before it and blocking it.
  const scope = useRestingCheck(
    choicesKey,
    () => (choices && current ? api.planScope(current.name, choices) : Promise.reject(new Error('no choices'))),
    checkDelayMs,
  );
  const answered = scope && scope.key === choicesKey ? scope : null;
  const refused = answered?.error ?? null;
  /** Whether core refused the value of this flag (its line names the flag first). */
  const refusedFor = (flag: string) => refused?.startsWith(`${flag} `) ?? false;
  const shownScope = answered?.value ?? null;
  const blocked = reason ?? refused;
  const [confirming, setConfirming] = useState(false);
  const launch = () => {
    if (!choices || !current) return;
    if (modules && 'request' in parsedModules) onStart(current.name, choices, parsedModules.request);
    else onStart(current.name, choices);
  };
  const start = () => {
    if (!choices || refused) return;
    if (shownScope?.confirm) setConfirming(true);
    else launch();
  };

  return (
    <section class="screen setup" aria-labelledby="setup-title">
      <header class="screen-head">
        <h1 id="setup-title">New run</h1>
        <div class="start">
          {blocked && (
            <span class="muted" data-testid="start-reason">
              {blocked}
            </span>
          )}
          {!blocked && shownScope && (
            <span class="muted small" data-testid="run-scope">
              {shownScope.text}
            </span>
          )}
          <button
            type="button"
            class="primary"
            disabled={blocked !== null}
            title={blocked ?? 'Start the run'}
            onClick={start}
            data-testid="start-run"
          >
            Start run
          </button>
        </div>
      </header>
      {confirming && shownScope && (
        <ConfirmDialog
          title="Start a long run?"
          message={shownScope.text}
          confirmLabel="Start run"
          cancelLabel="Not now"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            launch();
          }}
        />
      )}

      <div class="setup-grid">
        <fieldset class="panel">
          <legend>Suite and tests</legend>
          <label class="field">
            <span>Suite</span>
            <select value={suite} onChange={(e) => pickSuite(e.currentTarget.value)} disabled={!suites} data-testid="suite-select">
              {!suites && <option value="">Loading…</option>}
              {suites?.map((s) => (
                <option key={s.name} value={s.name} title={s.error ?? s.description} disabled={!!s.error}>
                  {s.error ? `${s.name} (broken)` : s.name === MODULES_SUITE ? 'modules (yours)' : s.name}
                </option>
              ))}
              {modulePaths.length > 0 && !suites?.some((s) => s.name === MODULES_SUITE) && (
                <option value={MODULES_SUITE}>modules (yours)</option>
              )}
            </select>
          </label>
          <div class="row wrap">
            <button
              type="button"
              onClick={() => addModules('modules')}
              title="Your own .wasm modules (WASI commands), run like a suite with the options below"
              data-testid="add-modules"
            >
              Add modules…
            </button>
            <button
              type="button"
              onClick={() => addModules('folder')}
              title="Every .wasm module in a folder"
              data-testid="add-module-folder"
            >
              Add folder…
            </button>
          </div>
          {modulePaths.length > 0 && (
            <ul class="module-list" data-testid="module-list">
              {modulePaths.map((p) => (
                <li key={p} title={p}>
                  <span class="name">{baseName(p)}</span>
                  <span class="muted small path">{p}</span>
                  <button
                    type="button"
                    class="remove"
                    onClick={() => removeModule(p)}
                    aria-label={`Remove ${baseName(p)}`}
                    data-testid={`remove-module-${baseName(p)}`}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
          {modules && <ModuleOptions options={moduleOptions} set={setOption} browse={browse} />}
          {modules && modulesError && (
            <p class="bad small" data-testid="modules-error">
              {modulesError}
            </p>
          )}
          {current && <p class="muted small">{current.description}</p>}
          {suites
            ?.filter((s) => s.error)
            .map((s) => (
              <p key={s.name} class="broken-error bad small" data-testid={`broken-suite-${s.name}`}>
                Suite {s.name} does not load: {s.error}
              </p>
            ))}
          <div class="row">
            <input
              type="search"
              placeholder="Filter by name or tag"
              aria-label="Filter tests"
              value={filter}
              onInput={(e) => setFilter(e.currentTarget.value)}
              data-testid="test-filter"
            />
            <button type="button" onClick={() => setVisibleTests(true)} data-testid="tests-all">
              All
            </button>
            <button type="button" onClick={() => setVisibleTests(false)} data-testid="tests-none">
              None
            </button>
          </div>
          <p class="muted small">
            {selectedTests.length} of {current?.tests.length ?? 0} selected
          </p>
          <ul class="checklist">
            {visibleTests.map((t) => (
              <li key={t.name}>
                <label title={t.description}>
                  <input
                    type="checkbox"
                    checked={tests.has(t.name)}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setTests((s) => toggle(s, t.name, on));
                    }}
                    data-testid={`test-${t.name}`}
                  />
                  <span class="name">{t.name}</span>
                  <span class="tags">{t.tags.join(', ')}</span>
                </label>
              </li>
            ))}
            {current && visibleTests.length === 0 && <li class="muted">No test matches “{filter}”.</li>}
          </ul>
        </fieldset>

        <fieldset class="panel">
          <legend>Runtimes</legend>
          <div class="row wrap">
            <button
              type="button"
              onClick={() => runtimes && setChosen(defaultRuntimes(runtimes, suite))}
              title="The default selection for this suite"
              data-testid="group-default"
            >
              {defaultGroupLabel(runtimes ?? [], defaultRuntimes(runtimes ?? [], suite))}
            </button>
            <button
              type="button"
              onClick={() => selectGroup('embedded')}
              disabled={runtimes !== null && !available.some((r) => r.kind === 'embedded')}
              title="Embedded engines and the baseline"
              data-testid="group-embedded"
            >
              Embedded
            </button>
            <button
              type="button"
              onClick={() => selectGroup('cli')}
              disabled={runtimes !== null && !available.some((r) => r.kind === 'cli')}
              title={
                runtimes !== null && !available.some((r) => r.kind === 'cli')
                  ? 'External CLIs: none available that this suite applies to'
                  : 'External CLIs and the baseline'
              }
              data-testid="group-cli"
            >
              CLI
            </button>
            <button type="button" onClick={() => selectGroup('all')} data-testid="group-all">
              All available
            </button>
            <button type="button" onClick={() => selectGroup('none')} data-testid="group-none">
              None
            </button>
          </div>
          <p class="muted small">
            {runtimes ? `${selectedRuntimes.length} of ${available.length} available selected` : 'Loading runtimes…'}
          </p>
          {groups.map((g) => (
            <div class="runtime-group" key={g.kind}>
              <h3>{g.kind === 'native' && !g.runtimes.some((r) => r.id === baseline) ? 'Native' : (KIND_TITLE[g.kind] ?? g.kind)}</h3>
              <ul class="checklist">
                {g.runtimes.map((r) => {
                  const na = notApplicable(r, suite);
                  const off = na !== null || r.unavailable !== null;
                  return (
                    <li key={r.id} class={na ? 'not-applicable' : r.unavailable ? 'unavailable' : undefined}>
                      <label title={r.config}>
                        <input
                          type="checkbox"
                          disabled={off}
                          checked={!off && (chosen?.has(r.id) ?? false)}
                          onChange={(e) => {
                            const on = e.currentTarget.checked;
                            setChosen((s) => toggle(s ?? new Set<string>(), r.id, on));
                          }}
                          data-testid={`runtime-${r.id}`}
                        />
                        <span class="name">{r.id}</span>
                        <span class="version">{r.version}</span>
                      </label>
                      <div class="muted small">{r.config}</div>
                      {na ? (
                        <div class="na-note small" data-testid={`na-${r.id}`}>
                          {na}
                        </div>
                      ) : (
                        r.unavailable && (
                          <div class="why small" data-testid={`unavailable-${r.id}`}>
                            Unavailable: {r.unavailable}
                            {r.hint && <div class="hint">Install: {r.hint}</div>}
                          </div>
                        )
                      )}
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </fieldset>

        <fieldset class="panel">
          <legend>Settings</legend>
          <label class="field">
            <span>Size</span>
            <select value={size ?? d?.size ?? ''} onChange={(e) => setSize(e.currentTarget.value as Size)} data-testid="setting-size">
              <option value="quick">quick</option>
              <option value="full">full</option>
            </select>
          </label>
          {fields.map((f) => (
            <label class="field" key={f.key}>
              <span>
                {f.label}
                {f.unit ? ` (${f.unit})` : ''}
              </span>
              <input
                type="number"
                min={0}
                step={1}
                value={f.value}
                placeholder={f.placeholder}
                onInput={(e) => f.set(e.currentTarget.value)}
                aria-invalid={!validField(f) || refusedFor(f.flag)}
                data-testid={f.testid}
              />
            </label>
          ))}
          {d && timeout.trim() === '' && (
            <p class="muted small" data-testid="timeout-note">
              Timeout: {d.timeout_source === 'suite' ? `the suite's own, ${d.timeout_secs} s` : `the default, ${d.timeout_secs} s`}, unless
              set.
            </p>
          )}
          <label class="field">
            <span>Order</span>
            <select
              value={order ?? d?.order ?? ''}
              onChange={(e) => setOrder(e.currentTarget.value as RunOrder)}
              title="Interleaved: every cell's k-th invocation, in a shuffled order, before any cell's next, so a slow phase of the machine spreads over all cells. Sequential: each cell's invocations back to back."
              data-testid="setting-order"
            >
              <option value="interleaved">interleaved</option>
              <option value="sequential">sequential</option>
            </select>
          </label>
          <RepetitionNote invocations={invocationsText} warmup={warmupText} runs={runsText} policy={policy} />
          <label class="field">
            <span>Seed</span>
            <input
              type="number"
              min={0}
              step={1}
              value={seed}
              placeholder="random"
              onInput={(e) => setSeed(e.currentTarget.value)}
              aria-invalid={seed.trim() !== '' && seedValue === null}
              title="Seed of the interleaved order: the same seed runs the cells in the same order"
              data-testid="setting-seed"
            />
          </label>
          <label class="field">
            <span>Measure</span>
            <select
              value={measure ?? 'time'}
              onChange={(e) => setMeasure(e.currentTarget.value as Measure)}
              title="Time, or also the instructions retired (perf counters), in the cells of embedded engines"
              data-testid="setting-measure"
            >
              <option value="time">time</option>
              <option value="instructions">instructions too</option>
            </select>
          </label>
          <label class="field">
            <span>Pair</span>
            <input
              type="text"
              value={pair}
              placeholder="A, B"
              onInput={(e) => setPair(e.currentTarget.value)}
              aria-invalid={refusedFor('--pair')}
              title="Two or more runtimes, or tests, of this run whose invocations run side by side in every round, for paired comparisons of any two (diff RUN --runtimes A,B or --tests A,B)"
              data-testid="setting-pair"
            />
          </label>
          {pairArms !== null && (
            <label class="field">
              <span>Pair mode</span>
              <select
                value={pairMode ?? ''}
                onChange={(e) => setPairMode(e.currentTarget.value === '' ? null : (e.currentTarget.value as PairMode))}
                title="Alternate: both arms in one worker, iteration by iteration (command suites measured by time). Processes: side by side, each in its own."
                data-testid="setting-pair-mode"
              >
                <option value="">core's choice</option>
                <option value="alternate">alternate in one worker</option>
                <option value="processes">processes side by side</option>
              </select>
            </label>
          )}
          <label class="field">
            <span>Precision (±%)</span>
            <input
              type="text"
              inputMode="decimal"
              value={precisionPct}
              placeholder={defaultPrecision ? `${defaultPrecision.pct} (default)` : 'off'}
              onInput={(e) => setPrecisionPct(e.currentTarget.value)}
              aria-invalid={(precisionPct.trim() !== '' && !precisionOff && precision === null) || refusedFor('--precision')}
              title="Adds rounds to the cells whose 95 % interval is still wider than this, until all meet it or the budget is spent; a command suite whose rounds are left to wasmeter aims at its default; off adds none"
              data-testid="setting-precision"
            />
          </label>
          <label class="field">
            <span>Sweep settings</span>
            <textarea
              rows={2}
              value={sweepText}
              placeholder="wasmtime.allocator=pooling,on-demand"
              onInput={(e) => setSweepText(e.currentTarget.value)}
              title="Engine settings to sweep, one ENGINE.NAME=V1,V2 a line (wasmeter runtimes --settings lists them): every combination runs as a runtime of its own, in place of its engine"
              data-testid="setting-sweep"
            />
          </label>
          {((precisionPct.trim() !== '' && !precisionOff) || (precisionPct.trim() === '' && defaultPrecision !== null)) && (
            <label class="field">
              <span>Budget (s)</span>
              <input
                type="number"
                min={0}
                step={1}
                value={budgetSecs}
                placeholder={
                  precisionPct.trim() === '' && defaultPrecision?.budget_secs
                    ? `${defaultPrecision.budget_secs} (default)`
                    : 'until the round cap'
                }
                onInput={(e) => setBudgetSecs(e.currentTarget.value)}
                aria-invalid={(budgetSecs.trim() !== '' && budget === null) || refusedFor('--budget')}
                title="Wall time the run may take while it adds rounds for the precision (the planned rounds always run)"
                data-testid="setting-budget"
              />
            </label>
          )}
          {http && (
            <div class="http-settings" data-testid="http-settings">
              <label class="field">
                <span>Concurrency levels</span>
                <input
                  type="text"
                  value={levelsText}
                  placeholder="1, 10, 50, 100"
                  onInput={(e) => setLevels(e.currentTarget.value)}
                  aria-invalid={httpLevels === null || refusedFor('--concurrency')}
                  title="Connections of each throughput phase, separated by commas"
                  data-testid="setting-http-levels"
                />
              </label>
              <label class="field">
                <span>Seconds per level</span>
                <input
                  type="number"
                  min={0}
                  step={0.1}
                  value={levelSecsText}
                  onInput={(e) => setLevelSecs(e.currentTarget.value)}
                  aria-invalid={httpDurationMs === null || refusedFor('--duration')}
                  data-testid="setting-http-duration"
                />
              </label>
              <label class="field">
                <span>Latency (s)</span>
                <input
                  type="number"
                  min={0}
                  step={0.1}
                  value={latencySecsText}
                  onInput={(e) => setLatencySecs(e.currentTarget.value)}
                  aria-invalid={httpLatencyMs === null || refusedFor('--latency')}
                  title="How long latency is measured over one keep-alive connection"
                  data-testid="setting-http-latency"
                />
              </label>
              <label class="field">
                <span>Offered rates (req/s)</span>
                <input
                  type="text"
                  value={ratesText}
                  placeholder="none"
                  onInput={(e) => setRates(e.currentTarget.value)}
                  aria-invalid={httpRates === null || refusedFor('--rates')}
                  title="Open-model load: requests per second offered at a fixed arrival rate, separated by commas; latency is corrected for coordinated omission"
                  data-testid="setting-http-rates"
                />
              </label>
              <label class="field">
                <span>p99 objective (ms)</span>
                <input
                  type="number"
                  min={0}
                  step={1}
                  value={sloText}
                  onInput={(e) => setSloMs(e.currentTarget.value)}
                  aria-invalid={httpSlo === null || refusedFor('--slo-p99')}
                  title="The knee is the highest offered rate whose corrected p99 stays within this"
                  data-testid="setting-http-slo"
                />
              </label>
              {shape.servers && (
                <p class="muted small">A test of the servers suite that sets its own connections and duration keeps them.</p>
              )}
            </div>
          )}
          <label class="field">
            <span>Baseline</span>
            <select value={shownBaseline} onChange={(e) => setBaseline(e.currentTarget.value)} data-testid="setting-baseline">
              {available.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.id}
                </option>
              ))}
              {!available.some((r) => r.id === shownBaseline) && <option value={shownBaseline}>{shownBaseline}</option>}
            </select>
          </label>
          {shape.baseline && chosen && selectedRuntimes.length > 0 && !selectedRuntimes.includes(shownBaseline) && (
            <p class="note small">The baseline is not in this run: live ratios will be missing.</p>
          )}
          <label class="field">
            <span>Label</span>
            <input
              type="text"
              value={label}
              placeholder="optional"
              onInput={(e) => setLabel(e.currentTarget.value)}
              data-testid="setting-label"
            />
          </label>
          <label class="check">
            <input
              type="checkbox"
              checked={skipMissing}
              onChange={(e) => setSkipMissing(e.currentTarget.checked)}
              data-testid="setting-skip-missing"
            />
            Skip runtimes that are missing instead of refusing
          </label>
          {current && shape.profiles && (
            <label
              class="check"
              title="Samples each cell's execute phase: the run detail then shows where the time goes, function by function"
            >
              <input
                type="checkbox"
                checked={profile}
                onChange={(e) => setProfile(e.currentTarget.checked)}
                data-testid="setting-profile"
              />
              Profile: where each runtime spends its time, per function
            </label>
          )}
        </fieldset>
      </div>
    </section>
  );
}

/** What the repetition fields add up to per cell, and whether a diff could judge it (core's policy). */
function RepetitionNote({
  invocations,
  warmup,
  runs,
  policy,
}: {
  invocations: string;
  warmup: string;
  runs: string;
  policy: RunPolicy | null;
}) {
  const k = parseIntField(invocations, 1, U32_MAX);
  const w = parseIntField(warmup, 0, U32_MAX);
  const n = parseIntField(runs, 1, U32_MAX);
  // Nothing to count yet: what core refuses, it says beside.
  if (k === null || w === null || n === null) return null;
  const few = policy !== null && (k < policy.min_invocations || k * n < policy.min_values);
  return (
    <p class={few ? 'note small' : 'muted small'} data-testid="repetition-note">
      Each cell: {k} fresh worker process{k === 1 ? '' : 'es'} × ({w} warm-up + {n} runs) = {k * n} values.
      {few && policy && ` A diff needs ${policy.min_invocations} invocations and ${policy.min_values} values a cell for a verdict.`}
    </p>
  );
}

/** Where a module option's value is typed, with what the CLI calls it. */
const OPTION_FIELDS: {
  key: keyof ModuleOptionsText;
  label: string;
  title: string;
  lines?: boolean;
  pick?: 'stdin' | 'expect' | 'native' | 'dirs';
}[] = [
  { key: 'args', label: 'Arguments', title: 'After the program name, as a shell splits them (-- ARGS)' },
  { key: 'env', label: 'Environment', title: 'KEY=VALUE, one a line (--env)', lines: true },
  { key: 'stdin', label: 'Stdin file', title: 'A file every module reads as its stdin (--stdin)', pick: 'stdin' },
  { key: 'expect', label: 'Expected output', title: 'The output every runtime must print (--expect)', pick: 'expect' },
  { key: 'dirs', label: 'Folders', title: 'HOST[::GUEST], one a line: host folders the modules see (--dir)', lines: true, pick: 'dirs' },
  { key: 'invoke', label: 'Invoke', title: 'An exported function called instead of _start, the arguments its own (--invoke)' },
  {
    key: 'native',
    label: 'Native build',
    title: 'PROGRAM, or TEST=PROGRAM one a line: the baseline run with the same arguments (--native)',
    pick: 'native',
  },
];

/** The options of `wasmeter run FILE.wasm`, as text fields. */
function ModuleOptions({
  options,
  set,
  browse,
}: {
  options: ModuleOptionsText;
  set: (key: keyof ModuleOptionsText, value: string) => void;
  browse: (key: 'stdin' | 'expect' | 'native' | 'dirs') => void;
}) {
  return (
    <div class="module-options" data-testid="module-options">
      {OPTION_FIELDS.map((f) => (
        <div class="field" key={f.key} title={f.title}>
          <label for={`module-${f.key}`}>{f.label}</label>
          <span class="row">
            {f.lines ? (
              <textarea
                rows={2}
                value={options[f.key]}
                onInput={(e) => set(f.key, e.currentTarget.value)}
                id={`module-${f.key}`}
                data-testid={`module-${f.key}`}
              />
            ) : (
              <input
                type="text"
                value={options[f.key]}
                onInput={(e) => set(f.key, e.currentTarget.value)}
                id={`module-${f.key}`}
                data-testid={`module-${f.key}`}
              />
            )}
            {f.pick && (
              <button type="button" onClick={() => browse(f.pick!)} aria-label={`Browse for ${f.label}`} data-testid={`browse-${f.key}`}>
                …
              </button>
            )}
          </span>
        </div>
      ))}
    </div>
  );
}
