// A confirmation's buttons inside an organiser dialog (src/ui/Dialog.tsx).

export interface ConfirmActionsProps {
  cancelLabel: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** A confirmation's two buttons: Cancel takes focus first, so Enter never destroys by accident. */
export function ConfirmActions({ cancelLabel, confirmLabel, onCancel, onConfirm }: ConfirmActionsProps) {
  return (
    <div className="organize-actions">
      <button type="button" className="button" data-autofocus onClick={onCancel}>
        {cancelLabel}
      </button>
      <button type="button" className="button primary" onClick={onConfirm}>
        {confirmLabel}
      </button>
    </div>
  );
}
