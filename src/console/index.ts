export { CONSOLE_LIMITS, CONSOLE_PATH, createConsole, type ConsoleLimits, type ConsoleOptions, type HostMember, type HostMemberOf } from './console.js';
