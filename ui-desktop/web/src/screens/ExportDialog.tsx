/**
 * Export of one run (or two with their diff, or runs compared) through export_report. The backend opens
 * the native save dialog itself, so the page only picks the format and reports back
 * where the file went, or that the user cancelled.
 */
import { useState } from 'preact/hooks';
import { type ExportFormat, type ExportRequest, errorMessage, exportReport } from '../api';
import { Modal } from '../components/Modal';
import { showError } from '../errors';

export interface ExportTarget {
  runs: string[];
  baseline?: string;
  threshold_pct?: number;
  /** The runs compared, as the compare screen shows them. */
  compare?: ExportRequest['compare'];
}

const FORMATS: { value: ExportFormat; label: string; what: string }[] = [
  { value: 'csv', label: 'CSV', what: 'tidy summary, one row per runtime/test/phase' },
  { value: 'html', label: 'HTML', what: 'one offline page with the matrix, charts and tables' },
  { value: 'md', label: 'Markdown', what: 'tables for an issue or a pull request' },
  { value: 'json', label: 'JSON', what: 'every number' },
];

type Outcome =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; path: string }
  | { kind: 'cancelled' }
  | { kind: 'error'; message: string };

export function ExportDialog({ target, onClose }: { target: ExportTarget; onClose: () => void }) {
  const [format, setFormat] = useState<ExportFormat>('html');
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
        {FORMATS.map((f) => (
          <label key={f.value} class="check">
            <input
              type="radio"
              name="export-format"
              value={f.value}
              checked={format === f.value}
              onChange={() => setFormat(f.value)}
              data-testid={`format-${f.value}`}
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
        <button type="button" class="primary" disabled={outcome.kind === 'saving'} onClick={save} data-autofocus data-testid="export-save">
          Save…
        </button>
      </div>
    </Modal>
  );
}
