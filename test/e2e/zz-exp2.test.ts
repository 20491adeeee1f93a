import { it } from 'vitest';
import { launchFirefox } from './support/firefox';
import { buildExtension } from './support/extension-build';
it('exp2', async () => {
  const dir = await buildExtension('firefox');
  const ff = await launchFirefox(dir);
  console.log('launched');
  const v = await ff.openViewer();
  console.log('opened', await v.evaluate(() => location.href));
  await ff.close();
}, 90_000);
