import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, MAX_EVENTS_SETTING, MAX_EXCHANGES_SETTING, MIN_EVENTS, parsePointers, parseSettings } from './settings';

describe('settings', () => {
  it('falls back to defaults for anything stored that is missing or wrong', () => {
    expect(parseSettings(undefined)).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings({ appSeqPointers: ['/ok', 'bad', 3], maxExchanges: 1e9, maxEvents: 1e9, redact: 'yes', fullFidelity: 'on' })).toEqual({
      appSeqPointers: ['/ok'],
      maxExchanges: MAX_EXCHANGES_SETTING,
      maxEvents: MAX_EVENTS_SETTING,
      redact: true,
      fullFidelity: false, // only a stored `true` turns the optional capture on
    });
    expect(parseSettings({ maxEvents: 3 }).maxEvents).toBe(MIN_EVENTS);
  });

  it('reads one pointer per line and names the lines that are not pointers', () => {
    expect(parsePointers(' /params/data/seq \n\nseq\n/a~1b')).toEqual({ pointers: ['/params/data/seq', '/a~1b'], invalid: ['seq'] });
  });
});
