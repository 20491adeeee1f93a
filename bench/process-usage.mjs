// Preloaded (`node --import`) into a measured process: at exit, writes what the kernel counted
// for it (peak RSS, CPU time) as one JSON line on fd 3, which the benchmark reads. Both the CLI
// and its baseline carry it, so what it costs is in both.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
  writeSync(3, `${JSON.stringify({ maxRssBytes: maxRSS * 1024, cpuMs: (userCPUTime + systemCPUTime) / 1000 })}\n`);
});
