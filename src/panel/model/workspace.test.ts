import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { scenarios } from '../../../test/support/scenarios';
import { NO_EVENTS, writeHar } from '../../core/index';
import type { CaptureSource } from './capture-source';
import { createWorkspace, MAX_IMPORTS } from './workspace';

const live: CaptureSource = { id: 'live', kind: 'live', label: 'Live capture', report: signal(null), events: () => NO_EVENTS, exchange: () => undefined, reanalyse: () => undefined };
const har = JSON.stringify(writeHar(scenarios.lostBuffer()));

describe('workspace', () => {
  it('shows an import, and closes the oldest past MAX_IMPORTS, saying so', () => {
    const workspace = createWorkspace(live, () => ({}));
    for (let i = 0; i <= MAX_IMPORTS; i++) expect(workspace.importHar(`f${i}.har`, har)).toBe(true);
    expect(workspace.sources.value.map((s) => s.label)).toEqual(['Live capture', ...Array.from({ length: MAX_IMPORTS }, (_, i) => `f${i + 1}.har`)]);
    expect(workspace.active.value.label).toBe(`f${MAX_IMPORTS}.har`);
    expect(workspace.notice.value?.text).toContain('1 older import closed');
    workspace.close(workspace.active.value.id);
    expect(workspace.active.value).toBe(live);
  });

  it('re-analyses imports with new app-sequence pointers', () => {
    const workspace = createWorkspace(live, () => ({}));
    workspace.importHar('a.har', har);
    const before = workspace.active.value.report.value;
    workspace.reanalyse({ appSeqPointers: ['/params/x'] });
    expect(workspace.active.value.report.value).not.toBe(before);
    expect(workspace.active.value.report.value?.sessions[0]?.resumes[0]?.verdict).toBe('gap');
  });
});
