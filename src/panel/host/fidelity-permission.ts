/** Said before Chrome is asked for `debugger`: what the user will see while the switch is on. */
export const CHROME_DEBUGGER_WARNING =
  'While it is on, Chrome shows its own "MCP Stream Lens started debugging this browser" bar; closing that bar turns the capture off.';

/** The slice of `browser.permissions` the switch uses. */
export interface PermissionsLike {
  contains(p: { permissions: string[] }): Promise<boolean>;
  request(p: { permissions: string[] }): Promise<boolean>;
}

/** Asks for `names` unless they are granted already (installed with them, or granted before). */
export const permissionRequest = (permissions: PermissionsLike, names: string[]) => async (): Promise<boolean> =>
  (await permissions.contains({ permissions: names }).catch(() => false)) || permissions.request({ permissions: names }).catch(() => false);

/** Firefox's side of the switch: what it reads with, said in the switch's one line. */
export const FIREFOX_WEBREQUEST_EXPLAIN =
  "Follows the MCP requests of the page's Workers live, with every chunk and reset, by reading their responses as they arrive (webRequest, optional permissions); every byte is passed on unchanged.";

/** What Firefox is asked for: the manifest's optional permissions and host permissions (manifest.config.ts). */
export const FIREFOX_WEBREQUEST_PERMISSIONS = {
  permissions: ['webRequest', 'webRequestBlocking', 'webRequestFilterResponse'],
  origins: ['http://*/*', 'https://*/*'],
};

/**
 * Firefox accepts `permissions.request` only while the click is being handled, so it is asked
 * at once (not after a `contains`): for permissions already granted it answers true unasked.
 */
export const firefoxPermissionRequest = (permissions: { request(p: typeof FIREFOX_WEBREQUEST_PERMISSIONS): Promise<boolean> }) => (): Promise<boolean> =>
  permissions.request(FIREFOX_WEBREQUEST_PERMISSIONS).catch(() => false);
