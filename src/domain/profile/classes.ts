import { CLASS_TOKENS } from '../game/specs.js';

/** The class names simc accepts as the line that declares a player (`warrior="Name"`): the game facts' classes. */
export const SIMC_CLASSES: readonly string[] = CLASS_TOKENS;
