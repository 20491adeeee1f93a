/** Tools whose annotations the guard remembers; past this the oldest is forgotten (and counted). */
export const MAX_KNOWN_TOOLS = 1_024;

/** What a server's `tools/list` said about one tool's side effects. */
export interface ToolHint {
  readOnlyHint?: boolean;
  idempotentHint?: boolean;
}

/** The tool annotations a client has listed through the guarded transport. */
export interface ToolHints {
  /** Reads a `tools/list` result; anything not shaped like one is ignored. */
  learn(result: unknown): void;
  get(name: string): ToolHint | undefined;
  /** Tools forgotten because {@link MAX_KNOWN_TOOLS} was reached. */
  forgotten(): number;
}

export function createToolHints(): ToolHints {
  const tools = new Map<string, ToolHint>();
  let forgotten = 0;
  return {
    learn(result) {
      const list = (result as { tools?: unknown } | null)?.tools;
      if (!Array.isArray(list)) return;
      for (const tool of list as unknown[]) {
        const name = (tool as { name?: unknown } | null)?.name;
        if (typeof name !== 'string') continue;
        const annotations = (tool as { annotations?: unknown }).annotations as Record<string, unknown> | undefined;
        const hint: ToolHint = {};
        if (typeof annotations?.readOnlyHint === 'boolean') hint.readOnlyHint = annotations.readOnlyHint;
        if (typeof annotations?.idempotentHint === 'boolean') hint.idempotentHint = annotations.idempotentHint;
        tools.delete(name);
        tools.set(name, hint);
        if (tools.size > MAX_KNOWN_TOOLS) {
          tools.delete(tools.keys().next().value!);
          forgotten += 1;
        }
      }
    },
    get: (name) => tools.get(name),
    forgotten: () => forgotten,
  };
}

/**
 * Whether repeating a tool call is safe by the server's own word: a read-only tool, or one marked
 * idempotent. The spec calls these hints, untrusted unless the server is; a user predicate
 * (`GuardOptions.idempotent`) overrides them.
 */
export function isIdempotentTool(hint: ToolHint | undefined): boolean {
  return hint?.readOnlyHint === true || hint?.idempotentHint === true;
}
