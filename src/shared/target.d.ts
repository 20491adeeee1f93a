/** The browser a bundle is built for; set by vite.config.ts (`--mode chrome|firefox`). */
declare const __TARGET__: 'chrome' | 'firefox';
