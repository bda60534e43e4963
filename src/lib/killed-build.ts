/**
 * A full build's process killed from outside (kill -9, the machine's memory killer) says nothing of
 * the content: the build runs once more, from a staging folder it starts again
 * (src/host/build-places.ts), before anyone is told it failed. The build runs in a process group of
 * its own, with its Astro process, and what is left of the group is killed before the second try,
 * so that no Astro process writes on behind it. Used by the newsroom's publisher
 * (src/server/editorial/publisher.ts) and the resident builder's full builds (src/host/builder.ts).
 *
 * Node modules only (the host runs this file as it is).
 */

/** What one try resolves with when its process was killed by a signal nobody here sent. */
export const KILLED = 'killed';

/** Kills what is left of a process group (a build's Astro process, once the build's process is gone). */
export function killProcessGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Nothing left.
  }
}

/**
 * Runs `once`, and once more when it was killed from outside (saying so through `say`); a second
 * kill is a failure (exit code 1).
 */
export async function onceMoreIfKilled(once: () => Promise<number | typeof KILLED>, say: (line: string) => void): Promise<number> {
  const code = await once();
  if (code !== KILLED) return code;
  say('\n[build] le processus de construction a été arrêté de l’extérieur : nouvelle tentative\n');
  const again = await once();
  return again === KILLED ? 1 : again;
}
