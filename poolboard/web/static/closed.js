// The page a closed referee console shows (no password set): in the reader's language.
import { loadLanguage } from "/static/poolboard.js";

await loadLanguage();
