// The link between a settings form and the passcode modal island. A form whose change the
// server refused with "passcode required" (code 14) asks here; the modal opens, and each
// passcode the person enters goes back through `submit`, which re-sends the change with it.
import { atom } from "nanostores";

export type PasscodeSubmitResult =
  | { ok: true }
  /** Refused: `message` shows under the field (wrong passcode, locked). */
  | { ok: false; message: string };

export interface PasscodeRequest {
  submit: (passcode: string) => Promise<PasscodeSubmitResult>;
  /** The person closed the modal without a passcode being accepted. */
  cancel: () => void;
  /** Where focus goes when the modal closes: the control that asked (it may be disabled while asking). */
  returnFocus?: HTMLElement | null;
}

export const $passcodeRequest = atom<PasscodeRequest | null>(null);

export function requestPasscode(request: PasscodeRequest): void {
  $passcodeRequest.get()?.cancel();
  $passcodeRequest.set(request);
}

export function endPasscodeRequest(): void {
  $passcodeRequest.set(null);
}
