/**
 * Imported first by main.tsx, before any schema is built. The page's CSP forbids eval, so
 * zod's compiled parsers can't run here; without this, zod probes with `Function('')` while
 * the contract's schemas are created, and the browser reports the refusal as a CSP violation
 * (noise that would hide a real one).
 */
import { z } from 'zod';

z.config({ jitless: true });
