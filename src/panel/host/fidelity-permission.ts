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
