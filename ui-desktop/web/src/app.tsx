/**
 * The workbench: nav bar, error banner and the seven screens. Screens stay mounted and are
 * hidden when not shown, so a half-filled setup or a loaded detail survives switching.
 * The catalog, core's policy constants and the runs list load in parallel on start; the
 * setup renders at once.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import * as api from './api';
import { ErrorBanner } from './components/ErrorBanner';
import { showError } from './errors';
import { LiveSession } from './live/session';
import { inFlight } from './live/state';
import { useLiveSelect } from './live/useLive';
import { CompareScreen } from './screens/Compare';
import { Detail } from './screens/Detail';
import { DiffScreen } from './screens/Diff';
import { ExportDialog, type ExportTarget } from './screens/ExportDialog';
import { type HistoryRequest, HistoryScreen } from './screens/History';
import { Live } from './screens/Live';
import { Runs } from './screens/Runs';
import { Setup } from './screens/Setup';

export type Screen = 'setup' | 'live' | 'runs' | 'detail' | 'diff' | 'compare' | 'history';

const NAV: { id: Screen; label: string }[] = [
  { id: 'setup', label: 'Setup' },
  { id: 'live', label: 'Live run' },
  { id: 'runs', label: 'Saved runs' },
  { id: 'detail', label: 'Run detail' },
  { id: 'diff', label: 'Diff' },
  { id: 'compare', label: 'Compare' },
  { id: 'history', label: 'History' },
];

export function App({ session: given }: { session?: LiveSession }) {
  const [screen, setScreen] = useState<Screen>('setup');
  const [runtimes, setRuntimes] = useState<api.RuntimeView[] | null>(null);
  const [suites, setSuites] = useState<api.SuiteInfo[] | null>(null);
  const [policy, setPolicy] = useState<api.RunPolicy | null>(null);
  const [runs, setRuns] = useState<api.RunListItem[] | null>(null);
  const [detailId, setDetailId] = useState<string | null>(null);
  const [pair, setPair] = useState<{ a: string | null; b: string | null }>({ a: null, b: null });
  const [compared, setCompared] = useState<string[]>([]);
  const [exporting, setExporting] = useState<ExportTarget | null>(null);
  const [historyAsk, setHistoryAsk] = useState<HistoryRequest | null>(null);

  const refreshRuns = useCallback(() => {
    api
      .listRuns()
      .then(setRuns)
      .catch((e) => {
        setRuns((r) => r ?? []);
        showError(e);
      });
  }, []);
  const refreshRef = useRef(refreshRuns);
  refreshRef.current = refreshRuns;

  const session = useMemo(() => given ?? new LiveSession({ onEnded: () => refreshRef.current(), onError: showError }), [given]);
  // Only whether a run is in flight: the live screen follows the details itself.
  const running = useLiveSelect(session, inFlight);

  useEffect(() => {
    api
      .listSuites()
      .then(setSuites)
      .catch((e) => {
        setSuites([]);
        showError(e);
      });
    api
      .listRuntimes()
      .then(setRuntimes)
      .catch((e) => {
        setRuntimes([]);
        showError(e);
      });
    api.runPolicy().then(setPolicy).catch(showError);
    refreshRuns();
  }, []);

  // The list is read again whenever it is shown: runs saved since the last read by another
  // wasmeter (the CLI in a terminal, a CI job writing to the same folder) appear.
  useEffect(() => {
    if (screen === 'runs') refreshRuns();
  }, [screen]);

  const start = (suite: string, choices: api.RunChoices, modules?: api.ModulesRequest) => {
    setScreen('live');
    void session.start(suite, choices, modules);
  };

  const openDetail = (id: string) => {
    setDetailId(id);
    setScreen('detail');
  };

  const deleteRuns = async (ids: string[]) => {
    for (const id of ids) {
      try {
        await api.deleteRun(id);
        if (detailId === id) setDetailId(null);
        if (pair.a === id || pair.b === id) setPair((p) => ({ a: p.a === id ? null : p.a, b: p.b === id ? null : p.b }));
        setCompared((c) => (c.includes(id) ? c.filter((x) => x !== id) : c));
      } catch (e) {
        showError(e);
      }
    }
    refreshRuns();
  };

  return (
    <div class="app">
      <nav class="nav" aria-label="Screens">
        <span class="brand">wasmeter</span>
        {NAV.map((n) => (
          <button
            key={n.id}
            type="button"
            class={screen === n.id ? 'active' : undefined}
            aria-current={screen === n.id ? 'page' : undefined}
            onClick={() => setScreen(n.id)}
            data-testid={`nav-${n.id}`}
          >
            {n.label}
            {n.id === 'live' && running && <span class="dot" role="img" aria-label="(running)" />}
          </button>
        ))}
      </nav>
      <ErrorBanner />
      <main class="content">
        <div hidden={screen !== 'setup'}>
          <Setup runtimes={runtimes} suites={suites} policy={policy} busy={running} onStart={start} />
        </div>
        <div hidden={screen !== 'live'}>
          <Live session={session} onOpenDetail={openDetail} onNewRun={() => setScreen('setup')} />
        </div>
        <div hidden={screen !== 'runs'}>
          <Runs
            runs={runs}
            onRefresh={refreshRuns}
            onOpen={openDetail}
            onDiff={(a, b) => {
              setPair({ a, b });
              setScreen('diff');
            }}
            onCompare={(ids) => {
              setCompared(ids);
              setScreen('compare');
            }}
            onDelete={deleteRuns}
            onExport={(ids) => setExporting({ runs: ids })}
          />
        </div>
        <div hidden={screen !== 'detail'}>
          <Detail
            runId={detailId}
            onPickRun={() => setScreen('runs')}
            onExport={(id, baseline) => setExporting({ runs: [id], baseline })}
            onHistory={(cell) => {
              setHistoryAsk((a) => ({ ...cell, nonce: (a?.nonce ?? 0) + 1 }));
              setScreen('history');
            }}
          />
        </div>
        <div hidden={screen !== 'diff'}>
          <DiffScreen
            runs={runs}
            a={pair.a}
            b={pair.b}
            defaultThresholdPct={policy?.threshold_pct ?? null}
            onPick={(a, b) => setPair({ a, b })}
            onExport={(a, b, thresholdPct) => setExporting({ runs: [a, b], threshold_pct: thresholdPct })}
          />
        </div>
        <div hidden={screen !== 'compare'}>
          <CompareScreen
            runs={runs}
            ids={compared}
            onPickRuns={() => setScreen('runs')}
            onExport={(ids, choice) => setExporting({ runs: ids, compare: choice })}
            defaultNormalize={policy?.compare_normalize ?? null}
          />
        </div>
        <div hidden={screen !== 'history'}>
          <HistoryScreen runs={runs} request={historyAsk} />
        </div>
      </main>
      {exporting && <ExportDialog target={exporting} formats={policy?.formats ?? []} onClose={() => setExporting(null)} />}
    </div>
  );
}
