/**
 * Export of one run (or two with their diff, or runs compared) through export_report. The backend opens
 * the native save dialog itself, so the page only picks the format and reports back
 * where the file went, or that the user cancelled.
 */
import { useState } from 'preact/hooks';
import { type ExportRequest, errorMessage, exportReport, type FormatInfo } from '../api';
import { Modal } from '../components/Modal';
import { showError } from '../errors';

export interface ExportTarget {
  runs: string[];
  baseline?: string;
  threshold_pct?: number;
  /** The runs compared, as the compare screen shows them. */
  compare?: ExportRequest['compare'];
}

type Outcome =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; path: string }
  | { kind: 'cancelled' }
  | { kind: 'error'; message: string };

/** `formats`: core's, from `run_policy` (empty while it loads). */
export function ExportDialog({ target, formats, onClose }: { target: ExportTarget; formats: FormatInfo[]; onClose: () => void }) {
  const [picked, setFormat] = useState<string | null>(null);
  // HTML until the user picks: the format that shows everything.
  const format = picked ?? formats.find((f) => f.id === 'html')?.id ?? formats[0]?.id ?? '';
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const title = target.compare
    ? `Export the comparison of ${target.runs.length} runs`
    : target.runs.length === 2
      ? `Export ${target.runs[1]} vs ${target.runs[0]}`
      : `Export ${target.runs[0]}`;

  const save = async () => {
    setOutcome({ kind: 'saving' });
    try {
      const path = await exportReport({ ...target, format });
      setOutcome(path === null ? { kind: 'cancelled' } : { kind: 'saved', path });
    } catch (e) {
      setOutcome({ kind: 'error', message: errorMessage(e) });
      showError(e);
    }
  };

  return (
    <Modal title={title} onClose={onClose} testid="export-dialog">
      <fieldset class="formats">
        <legend>Format</legend>
        {formats.map((f) => (
          <label key={f.id} class="check">
            <input
              type="radio"
              name="export-format"
              value={f.id}
              checked={format === f.id}
              onChange={() => setFormat(f.id)}
              data-testid={`format-${f.id}`}
            />
            <strong>{f.label}</strong> <span class="muted small">{f.what}</span>
          </label>
        ))}
      </fieldset>
      {target.runs.length === 2 && !target.compare && <p class="muted small">Includes the diff of B against A.</p>}
      {target.compare && (
        <p class="muted small" data-testid="export-compare">
          Leads with the comparison of {target.runs.join(', ')},{' '}
          {target.compare.normalize === 'none' ? 'times as measured' : `each relative to its own run's ${target.compare.normalize}`}
          {target.compare.by_machine ? ', columns by machine' : ''} (CSV: the comparison alone, one row per runtime × test × run).
        </p>
      )}
      <p class="export-result" data-testid="export-result" aria-live="polite">
        {outcome.kind === 'saving' && 'Choose where to save…'}
        {outcome.kind === 'saved' && `Saved to ${outcome.path}`}
        {outcome.kind === 'cancelled' && 'Export cancelled'}
        {outcome.kind === 'error' && <span class="bad">Export failed: {outcome.message}</span>}
      </p>
      <div class="modal-actions">
        <button type="button" onClick={onClose} data-testid="export-close">
          Close
        </button>
        <button
          type="button"
          class="primary"
          disabled={outcome.kind === 'saving' || format === ''}
          onClick={save}
          data-autofocus
          data-testid="export-save"
        >
          Save…
        </button>
      </div>
    </Modal>
  );
}
