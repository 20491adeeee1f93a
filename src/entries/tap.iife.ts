// MAIN-world page tap. Built as a self-contained classic script (the `.iife` name tells crxjs),
// so it runs synchronously at document_start, before any page script can grab fetch.
import { installTap } from '../capture/tap/install';

installTap(window);
