/**
 * Structured logs: one JSON object per line on stdout (stderr for errors), ready for any
 * collector. Never pass secrets, passwords, tokens or full e-mail bodies as fields.
 */
type Level = 'debug' | 'info' | 'warn' | 'error';
type Fields = Record<string, unknown>;

function write(level: Level, msg: string, fields: Fields = {}) {
  if (level === 'debug' && !process.env.DEBUG) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }, (_key, value) =>
    value instanceof Error ? { name: value.name, message: value.message } : value,
  );
  (level === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
}

export const log = {
  debug: (msg: string, fields?: Fields) => write('debug', msg, fields),
  info: (msg: string, fields?: Fields) => write('info', msg, fields),
  warn: (msg: string, fields?: Fields) => write('warn', msg, fields),
  error: (msg: string, fields?: Fields) => write('error', msg, fields),
};
