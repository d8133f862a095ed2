export {
  CONSOLE_LIMITS,
  CONSOLE_PATH,
  type ConsoleLimits,
  type ConsoleOptions,
  createConsole,
  type HostMember,
  type HostMemberOf,
} from './console.js';
