"use client";
// Enrolment in two-factor sign-in: the password, then the QR code (drawn on the server as SVG by the qrcode
// library), the secret as text for apps that cannot scan, the recovery codes (shown this once), and the first code.
import { useFormState } from "react-dom";
import type { ActionState } from "../../actions/result";
import { ActionForm, Field, SubmitButton } from "../action-form";

type Action = (state: ActionState, form: FormData) => Promise<ActionState>;
export type TwoFactorSetupLabels = {
  password: string;
  start: string;
  scan: string;
  secret: string;
  codesTitle: string;
  codesHint: string;
  code: string;
  confirm: string;
  qrAlt: string;
};

export function TwoFactorSetup({ start, confirm, labels }: { start: Action; confirm: Action; labels: TwoFactorSetupLabels }) {
  const [state, startAction] = useFormState(start, { status: "idle" } as ActionState);
  if (state.status !== "ok" || !state.data) {
    return (
      <form action={startAction} className="form" data-testid="two-factor-start-form" noValidate>
        <div className="field">
          <label htmlFor="two-factor-password">{labels.password}</label>
          <input
            id="two-factor-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={state.status === "error" || undefined}
            aria-describedby={state.status === "error" ? "two-factor-start-error" : undefined}
          />
        </div>
        {state.status === "error" && state.message ? (
          <p className="form-error" role="alert" id="two-factor-start-error">
            {state.message}
          </p>
        ) : null}
        <SubmitButton>{labels.start}</SubmitButton>
      </form>
    );
  }
  const { qr = "", secret = "", codes = "" } = state.data;
  return (
    <>
      <p>{labels.scan}</p>
      {/* The SVG is the qrcode library's output for the otpauth URI better-auth made: paths only, no script. */}
      <div className="qr-code" role="img" aria-label={labels.qrAlt} data-testid="two-factor-qr" dangerouslySetInnerHTML={{ __html: qr }} />
      <p>
        {labels.secret} <code data-testid="two-factor-secret">{secret}</code>
      </p>
      <h3>{labels.codesTitle}</h3>
      <p>{labels.codesHint}</p>
      <ul className="recovery-codes" data-testid="two-factor-recovery-codes">
        {codes.split("\n").map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <ActionForm action={confirm} testId="two-factor-confirm-form">
        <Field name="code" label={labels.code} autoComplete="one-time-code" required />
        <SubmitButton>{labels.confirm}</SubmitButton>
      </ActionForm>
    </>
  );
}
