import { useState } from 'preact/hooks';
import { formatChars, visibleText } from '../text/visible';

/** Characters rendered before "Show all": a 1 MB value must not freeze the panel by default. */
export const MAX_SHOWN_CHARS = 20_000;

/** Untrusted multi-line text in a scrolling block, as text only, hidden characters made visible. */
export function ClippedText({ text, label }: { text: string; label: string }) {
  const [all, setAll] = useState(false);
  const long = text.length > MAX_SHOWN_CHARS;
  const shown = long && !all ? text.slice(0, MAX_SHOWN_CHARS) : text;
  return (
    <div class="clipped">
      <pre class="untrusted" aria-label={label} tabIndex={0}>
        {visibleText(shown)}
      </pre>
      {long ? (
        <button type="button" onClick={() => setAll(!all)}>
          {all ? 'Show less' : `Show all (${formatChars(text.length - MAX_SHOWN_CHARS)} more)`}
        </button>
      ) : null}
    </div>
  );
}
