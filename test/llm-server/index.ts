export * from './scripts';
export * from './server';
export { LlmServerControl } from './control';
