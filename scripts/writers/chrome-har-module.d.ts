// chrome-har ships no types; this is the one function the recorder calls.
declare module 'chrome-har' {
  export function harFromMessages(
    messages: readonly { method: string; params: unknown }[],
    options?: { includeTextFromResponseBody?: boolean },
  ): { log: { entries: { request: { url: string } }[] } & Record<string, unknown> };
}
