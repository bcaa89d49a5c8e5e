import { terminalSafe } from '../../../util/safe.js';

/**
 * Escaping for the HTML report. Every string that came from a server, a profile or a file goes through `text()`
 * (element content and quoted attribute values alike), inline data through `scriptJson()`, links through `safeHref()`.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text for HTML or SVG content or a quoted attribute: markup characters become entities, and control and
 * bidirectional-override characters are shown as escapes (`\x1b`), as in the terminal views, so a name can neither
 * add markup nor reorder what the reader sees.
 */
export function text(value: unknown): string {
  return terminalSafe(String(value ?? '')).replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>` and `&` are written as \u escapes, so no string in
 * it can close the element (`</script>`) or open a comment; JSON.parse reads them back unchanged.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A URL the page may link to: http(s) or file only, so a `javascript:` "share link" is shown as text, never followed. */
export function safeHref(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return ['http:', 'https:', 'file:'].includes(parsed.protocol) ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** A link when the URL is safe to follow, else the URL as plain text. */
export function link(url: string | null | undefined, label: string = url ?? ''): string {
  const href = safeHref(url);
  return href ? `<a href="${text(href)}">${text(label)}</a>` : text(label);
}
