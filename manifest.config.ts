import type { ManifestV3Export } from '@crxjs/vite-plugin';
import pkg from './package.json' with { type: 'json' };

export type Target = 'chrome' | 'firefox';

/**
 * Optional permissions, asked for by the panel's "Capture workers and early requests" switch.
 * Firefox reads responses with `webRequest.filterResponseData`: it needs `webRequestBlocking`
 * (the filter is made in a blocking listener) and, in MV3, `webRequestFilterResponse`.
 */
export const FIDELITY_PERMISSIONS: Record<Target, string[]> = { chrome: ['debugger'], firefox: ['webRequest', 'webRequestBlocking', 'webRequestFilterResponse'] };

/** The add-on id Firefox needs (also what the e2e tests pin an internal UUID to). */
export const GECKO_ID = 'mcp-stream-lens@mcp-stream-lens.dev';

// Plain http(s) pages only: MCP clients run there. No host_permissions; the only permission is
// `storage` (no install warning), for the panel's settings (docs/permissions.md).
const PAGES = ['http://*/*', 'https://*/*'];

/** Optional host permissions of the switch: a StreamFilter needs host permission for the request. */
export const FIDELITY_ORIGINS: Record<Target, string[]> = { chrome: [], firefox: PAGES };

/**
 * The one manifest source for both browsers (STYLE.md rule 4). Everything the two share is
 * written once; only the background key and Firefox's settings differ.
 */
export function manifestFor(target: Target, options: { /** Tests: install with the optional permissions granted. */ pregrant?: boolean } = {}): ManifestV3Export {
  const icons = { 16: 'icon-16.png', 32: 'icon-32.png', 48: 'icon-48.png', 128: 'icon-128.png' };
  return {
    manifest_version: 3,
    name: 'MCP Stream Lens',
    version: pkg.version,
    description: 'DevTools panel that captures MCP Streamable HTTP / SSE streams live and flags broken resumes.',
    icons,
    devtools_page: 'src/entries/devtools.html',
    permissions: ['storage', ...(options.pregrant ? FIDELITY_PERMISSIONS[target] : [])],
    ...(FIDELITY_PERMISSIONS[target].length > 0 && !options.pregrant ? { optional_permissions: FIDELITY_PERMISSIONS[target] } : {}),
    ...(FIDELITY_ORIGINS[target].length > 0 ? { [options.pregrant ? 'host_permissions' : 'optional_host_permissions']: FIDELITY_ORIGINS[target] } : {}),
    background:
      target === 'firefox'
        ? // Firefox runs MV3 backgrounds as event pages, not service workers.
          { scripts: ['src/entries/background.ts'], type: 'module' }
        : { service_worker: 'src/entries/background.ts', type: 'module' },
    content_scripts: [
      {
        // MAIN world at document_start, every frame: wraps fetch before page scripts run.
        matches: PAGES,
        js: ['src/entries/tap.iife.ts'],
        run_at: 'document_start',
        all_frames: true,
        world: 'MAIN',
      },
      {
        matches: PAGES,
        js: ['src/entries/relay.iife.ts'],
        run_at: 'document_start',
        all_frames: true,
      },
    ],
    ...(target === 'firefox'
      ? {
          browser_specific_settings: {
            // MAIN-world content scripts need 128; data_collection_permissions is read from 140 (an ESR).
            gecko: { id: GECKO_ID, strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } },
          },
        }
      : // 111: first Chrome with `world: "MAIN"` in the manifest.
        { minimum_chrome_version: '111' }),
  } as ManifestV3Export;
}
