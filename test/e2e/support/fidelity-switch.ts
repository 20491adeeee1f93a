import type { Frame } from 'puppeteer-core';

/** Turns the panel's "Capture workers and early requests" switch on or off, through its settings. */
export async function setFidelitySwitch(panel: Frame, on: boolean): Promise<void> {
  await panel.click('[data-testid="settings-toggle"]');
  const box = await panel.waitForSelector('[data-testid="settings-fidelity"]');
  if ((await box!.evaluate((b) => (b as HTMLInputElement).checked)) !== on) await box!.click();
  await panel.click('[data-testid="settings-save"]');
  await panel.waitForSelector('[data-testid="settings"]', { hidden: true });
}

/** Waits until the panel's fidelity status says the debugger is (or is not) attached; returns its text. */
export async function fidelityStatus(panel: Frame, attached: boolean): Promise<string | null> {
  await panel.click('[data-testid="settings-toggle"]');
  const status = await panel.waitForSelector(`[data-testid="fidelity-status"][data-attached="${attached}"]`, { timeout: 30_000 });
  const text = await status!.evaluate((s) => s.textContent);
  await panel.click('[data-testid="settings-toggle"]');
  return text;
}

/** Waits until the panel's fidelity status counts at least `workers` Workers followed. */
export async function fidelityWorkers(panel: Frame, workers: number): Promise<number> {
  await panel.click('[data-testid="settings-toggle"]');
  const status = await panel.waitForFunction(
    (n: number) => {
      const s = document.querySelector<HTMLElement>('[data-testid="fidelity-status"][data-attached="true"]');
      return s && Number(s.dataset.workers) >= n ? Number(s.dataset.workers) : null;
    },
    { polling: 100, timeout: 30_000 },
    workers,
  );
  const count = (await status.jsonValue()) as number;
  await panel.click('[data-testid="settings-toggle"]');
  return count;
}
