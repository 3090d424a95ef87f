"use client";
// A form bound to a server action: pending state, a status line and per-field errors shown inline.
import { createContext, type ReactNode, useContext, useEffect, useId, useRef } from "react";
import { useFormState, useFormStatus } from "react-dom";
import type { ActionState } from "../actions/result";

type Action = (state: ActionState, form: FormData) => Promise<ActionState>;
const INITIAL_STATE: ActionState = { status: "idle" };
const FieldErrors = createContext<Record<string, string[]> | undefined>(undefined);

/** `resetOnSuccess`: empty the fields once the action succeeded (a form that adds one more of something). */
export function ActionForm({
  action,
  children,
  className,
  successMessage,
  testId,
  resetOnSuccess,
}: {
  action: Action;
  children: ReactNode;
  className?: string;
  successMessage?: string;
  testId?: string;
  resetOnSuccess?: boolean;
}) {
  const [state, formAction] = useFormState(action, INITIAL_STATE);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (resetOnSuccess && state.status === "ok") form.current?.reset();
  }, [state, resetOnSuccess]);
  return (
    <form ref={form} action={formAction} className={className ?? "form"} data-testid={testId} noValidate>
      <FieldErrors.Provider value={state.fields}>{children}</FieldErrors.Provider>
      {state.status === "error" && state.message ? (
        <p className="form-error" role="alert">
          {state.message}
        </p>
      ) : null}
      {state.status === "ok" && (state.message || successMessage) ? (
        <p className="form-ok" role="status">
          {state.message ?? successMessage}
        </p>
      ) : null}
      {state.status === "ok" && state.notice ? (
        <p className="form-notice" data-testid="form-notice">
          {state.notice}
        </p>
      ) : null}
      {state.status === "ok" && state.data
        ? Object.entries(state.data).map(([k, v]) => (
            <p key={k} className="form-secret" data-testid={`result-${k}`}>
              <code>{v}</code>
            </p>
          ))
        : null}
    </form>
  );
}

export type Option = { value: string; label: string };

/**
 * A labelled input (with `options`, a select; with type "textarea", a text area) and its inline error. Ids come from useId, so a page can hold
 * several forms with the same field names.
 */
export function Field({
  name,
  label,
  type = "text",
  defaultValue,
  required,
  autoComplete,
  placeholder,
  options,
}: {
  name: string;
  label: string;
  type?: string;
  defaultValue?: string;
  required?: boolean;
  autoComplete?: string;
  placeholder?: string;
  options?: Option[];
}) {
  const errors = useContext(FieldErrors)?.[name];
  const id = `${useId()}${name}`;
  const describedBy = errors ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {options ? (
        <select id={id} name={name} defaultValue={defaultValue} aria-describedby={describedBy}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : type === "textarea" ? (
        <textarea
          id={id}
          name={name}
          defaultValue={defaultValue}
          required={required}
          placeholder={placeholder}
          rows={4}
          aria-invalid={errors ? true : undefined}
          aria-describedby={describedBy}
        />
      ) : (
        <input
          id={id}
          name={name}
          type={type}
          defaultValue={defaultValue}
          required={required}
          autoComplete={autoComplete}
          placeholder={placeholder}
          aria-invalid={errors ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
      {errors ? (
        <span id={`${id}-error`} className="field-error" data-field-error={name}>
          {errors.join(" ")}
        </span>
      ) : null}
    </div>
  );
}

/** `name` and `value`: sent with the form when this button submits it (a form with two buttons tells which). */
export function SubmitButton({ children, variant, name, value }: { children: ReactNode; variant?: "danger" | "secondary"; name?: string; value?: string }) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" name={name} value={value} className={variant ? `button ${variant}` : "button"} disabled={pending} aria-busy={pending}>
      {children}
    </button>
  );
}

/** A group of checkboxes sharing `name` (each checked one is sent as one value), with the group's inline error. */
export function CheckboxGroup({ name, legend, options, testId }: { name: string; legend: string; options: (Option & { hint?: string })[]; testId?: string }) {
  const errors = useContext(FieldErrors)?.[name];
  const id = `${useId()}${name}`;
  return (
    <fieldset className="field checkbox-group" data-testid={testId} aria-describedby={errors ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="checkbox">
          <input type="checkbox" name={name} value={o.value} /> <code>{o.label}</code>
          {o.hint ? <span className="muted"> {o.hint}</span> : null}
        </label>
      ))}
      {errors ? (
        <span id={`${id}-error`} className="field-error" data-field-error={name}>
          {errors.join(" ")}
        </span>
      ) : null}
    </fieldset>
  );
}
