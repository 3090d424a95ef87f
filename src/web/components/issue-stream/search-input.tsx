"use client";
// The issue search's input with suggestions (WAI-ARIA combobox with a listbox): first the keys (is:, level:,
// release:…), then the values of the key being typed. Choosing one replaces the last word. It stays a plain text
// input of a GET form, so searching works without JavaScript.
import { type KeyboardEvent, useId, useMemo, useState } from "react";

export type SuggestionValues = Record<string, string[]>;

/** The word being typed (the last one) and what precedes it. */
function lastWord(text: string): { head: string; word: string } {
  const m = /(?:^|\s)((?:[^\s"]|"[^"]*"?)*)$/.exec(text);
  const word = m?.[1] ?? "";
  return { head: text.slice(0, text.length - word.length), word };
}

const quoted = (v: string) => (/[\s"]/.test(v) ? `"${v.replace(/"/g, "")}"` : v);
const MAX_SHOWN = 12;

export function SearchInput({
  name,
  label,
  defaultValue,
  placeholder,
  values,
}: {
  name: string;
  label: string;
  defaultValue: string;
  placeholder: string;
  values: SuggestionValues;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState(defaultValue);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const options = useMemo(() => {
    const { word } = lastWord(text);
    const colon = word.indexOf(":");
    if (colon < 0) {
      const w = word.toLowerCase();
      return Object.keys(values)
        .filter((k) => k.startsWith(w))
        .map((k) => ({ label: `${k}:`, insert: `${k}:`, done: false }));
    }
    const key = word.slice(0, colon);
    const typed = word
      .slice(colon + 1)
      .replace(/"/g, "")
      .toLowerCase();
    return (values[key] ?? [])
      .filter((v) => v.toLowerCase().includes(typed))
      .slice(0, MAX_SHOWN)
      .map((v) => ({ label: v, insert: `${key}:${quoted(v)} `, done: true }));
  }, [text, values]);
  const shown = open && options.length > 0;

  const choose = (i: number) => {
    const option = options[i];
    if (!option) return;
    setText(lastWord(text).head + option.insert);
    setActive(-1);
    setOpen(!option.done);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((a) => (options.length === 0 ? -1 : (a + step + options.length) % options.length));
    } else if (e.key === "Enter" && shown && active >= 0) {
      e.preventDefault();
      choose(active);
    } else if (e.key === "Escape") {
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="search-input">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? `${id}-o${active}` : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        data-testid="issue-search"
      />
      <ul id={listId} role="listbox" aria-label={label} className="search-suggestions" hidden={!shown} data-testid="search-suggestions">
        {shown
          ? options.map((o, i) => (
              <li
                key={o.insert}
                id={`${id}-o${i}`}
                role="option"
                aria-selected={i === active}
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(i);
                }}
              >
                {o.label}
              </li>
            ))
          : null}
      </ul>
    </div>
  );
}
