export { CONSOLE_LIMITS, CONSOLE_PATH, createConsole, type ConsoleLimits, type ConsoleOptions } from './console.js';
