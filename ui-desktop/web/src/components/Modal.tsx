/**
 * A modal dialog: focus moves in on open and back on close, Escape closes, Tab stays
 * inside. Our own element rather than window.confirm, which webviews may not show.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

let nextId = 0;

/**
 * Open modals, innermost last. Escape is heard on the document, not only inside the box:
 * after a native dialog (the export's save dialog) or a button that disabled itself, the
 * focus is on the page's body and a key pressed there never reaches the modal.
 */
const open: Array<{ close: () => void }> = [];

function onDocumentKey(e: KeyboardEvent): void {
  if (e.key !== 'Escape' || e.defaultPrevented) return;
  const top = open[open.length - 1];
  if (!top) return;
  e.preventDefault();
  top.close();
}

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, [tabindex]:not([tabindex="-1"])';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  testid?: string;
}

export function Modal({ title, onClose, children, testid }: ModalProps) {
  const box = useRef<HTMLDivElement>(null);
  const titleId = useRef(`modal-title-${++nextId}`).current;

  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const entry = { close: () => closeRef.current() };
    open.push(entry);
    if (open.length === 1) document.addEventListener('keydown', onDocumentKey);
    return () => {
      open.splice(open.indexOf(entry), 1);
      if (open.length === 0) document.removeEventListener('keydown', onDocumentKey);
    };
  }, []);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = box.current?.querySelector<HTMLElement>('[data-autofocus]') ?? box.current?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => previous?.focus?.();
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Tab' && box.current) {
      const items = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (items.length === 0) return;
      const first = items[0]!;
      const last = items[items.length - 1]!;
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
  };

  return (
    <div class="modal-backdrop">
      <div class="modal" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={box} onKeyDown={onKeyDown} data-testid={testid}>
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </div>
  );
}

interface ConfirmProps {
  title: string;
  message: ComponentChildren;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Yes/no question; the safe answer has the focus first. */
export function ConfirmDialog({ title, message, confirmLabel, cancelLabel = 'Cancel', danger, onConfirm, onCancel }: ConfirmProps) {
  return (
    <Modal title={title} onClose={onCancel} testid="confirm-dialog">
      <div class="modal-body">{message}</div>
      <div class="modal-actions">
        <button type="button" onClick={onCancel} data-testid="confirm-no">
          {cancelLabel}
        </button>
        <button type="button" class={danger ? 'danger' : 'primary'} onClick={onConfirm} data-testid="confirm-yes">
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
