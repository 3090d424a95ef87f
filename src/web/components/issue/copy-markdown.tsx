"use client";
// "Copy as Markdown": puts the summary (built on the server) on the clipboard.
import { useState } from "react";

export function CopyMarkdown({ markdown, label, copiedLabel, failedLabel }: { markdown: string; label: string; copiedLabel: string; failedLabel: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <span className="copy-markdown">
      <button
        type="button"
        className="button secondary"
        data-testid="copy-markdown"
        onClick={() => {
          void (navigator.clipboard?.writeText(markdown) ?? Promise.reject(new Error("no clipboard"))).then(
            () => setState("copied"),
            () => setState("failed"),
          );
        }}
      >
        {label}
      </button>
      <span role="status" className="muted">
        {state === "copied" ? copiedLabel : state === "failed" ? failedLabel : ""}
      </span>
    </span>
  );
}
