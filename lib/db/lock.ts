import fs from "node:fs";
import path from "node:path";

/**
 * PGlite allows one process per data directory. The holder writes its pid here; another process that finds a
 * live pid refuses with a clear message instead of corrupting the database.
 */
export class DataDirBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dir} is in use by process ${pid} (a running server?). ` +
        `Stop it first, or point DATABASE_URL at a PostgreSQL server.`,
    );
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "process.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number.parseInt(fs.readFileSync(file, "utf8"), 10);
      if (Number.isFinite(pid) && pid !== process.pid && alive(pid)) throw new DataDirBusyError(dir, pid);
      // A holder that died (SIGKILL) leaves its file behind: take over.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock ${dir}`);
}
