// The baseline of `cli-har`: a process that only reads a HAR and parses it whole, as a CLI that
// reads files the plain way would before any analysis.
import { readFileSync } from 'node:fs';

const har = JSON.parse(readFileSync(process.argv[2], 'utf8'));
if (!Array.isArray(har.log?.entries)) process.exitCode = 2;
