// Stand-ins for the Node built-ins @aztec/foundation imports but does not use on the paths the
// Chromium page runs (util.inspect for its custom printers, tty for its logger's colours).
export const inspect = Object.assign(() => '', { custom: Symbol.for('nodejs.util.inspect.custom') });
export const isatty = () => false;
export default { inspect, isatty };
