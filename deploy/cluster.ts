import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../lib/testing/port";
import { spawnServer, type Spawned } from "../lib/testing/spawn";

/**
 * Several real instances (server.ts, as `npm start` runs them) behind nginx running deploy/nginx/relay.conf, all on
 * loopback ports of their own: the harness of deploy/cluster.api.test.ts and bench/cluster.ts.
 */
const CONF = path.resolve(import.meta.dirname, "nginx/relay.conf");
const NAMES = ["a", "b", "c"] as const;
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => fs.existsSync(p));

export const nginxInstalled = () => NGINX !== undefined;

export interface Instance {
  name: string;
  port: number;
  url: string;
  server: Spawned;
}

export interface Cluster {
  /** nginx's address: what clients use. */
  url: string;
  instances: Instance[];
  /** Starts the instance again on its port (after a kill or a drain); resolves once it is ready. */
  restart(i: Instance): Promise<void>;
  /** SIGTERM, and the exit code once it has drained and gone. */
  drain(i: Instance): Promise<number | null>;
  kill(i: Instance): Promise<void>;
  rssMb(i: Instance): number;
  stop(): Promise<void>;
}

/** deploy/nginx/relay.conf with this run's ports, in a main configuration of its own (no root paths). */
function renderConf(dir: string, listen: number, ports: number[]): string {
  let conf = fs.readFileSync(CONF, "utf8").replace(/listen 80;/, `listen 127.0.0.1:${listen};`);
  ports.forEach(
    (p, i) => (conf = conf.replace(new RegExp(`127\\.0\\.0\\.1:${3001 + i}\\b`, "g"), `127.0.0.1:${p}`)),
  );
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  return [
    "daemon off;",
    "master_process on;",
    "worker_processes 1;",
    // Run as root, nginx's workers would take `nobody`, who cannot write here.
    ...(process.getuid?.() === 0 ? ["user root;"] : []),
    `pid ${path.join(dir, "nginx.pid")};`,
    `error_log ${path.join(dir, "error.log")} warn;`,
    "events { worker_connections 16384; }",
    "http {",
    `  access_log off;`,
    `  ${temp("client_body")} ${temp("proxy")} ${temp("fastcgi")} ${temp("uwsgi")} ${temp("scgi")}`,
    conf,
    "}",
  ].join("\n");
}

async function waitFor(url: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startCluster(env: Record<string, string>, count = 3): Promise<Cluster> {
  if (!NGINX) throw new Error("nginx is not installed (apt-get install nginx)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-cluster-"));
  const ports = await Promise.all(NAMES.slice(0, count).map(() => freePort()));
  const listen = await freePort();
  const start = (name: string, port: number): Spawned =>
    spawnServer({
      ...env,
      PORT: String(port),
      INSTANCE_NAME: name,
      TRUSTED_PROXIES: "127.0.0.1",
    });
  const instances: Instance[] = ports.map((port, i) => {
    const name = NAMES[i]!;
    return { name, port, url: `http://127.0.0.1:${port}`, server: start(name, port) };
  });
  await Promise.all(instances.map((i) => i.server.ready));

  const confPath = path.join(dir, "nginx.conf");
  fs.writeFileSync(confPath, renderConf(dir, listen, ports));
  const test = spawnSync(NGINX, ["-t", "-c", confPath, "-p", dir], { encoding: "utf8" });
  if (test.status !== 0) throw new Error(`nginx refused the configuration:\n${test.stderr}`);
  const nginx: ChildProcess = spawn(NGINX, ["-c", confPath, "-p", dir], { stdio: "ignore" });
  const url = `http://127.0.0.1:${listen}`;
  await waitFor(`${url}/api/health/ready`);

  return {
    url,
    instances,
    restart: async (i) => {
      i.server = start(i.name, i.port);
      await i.server.ready;
    },
    drain: (i) => {
      i.server.child.kill("SIGTERM");
      return i.server.exited;
    },
    kill: async (i) => {
      i.server.child.kill("SIGKILL");
      await i.server.exited;
    },
    rssMb: (i) => {
      const pid = i.server.child.pid;
      const m = pid ? /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8")) : null;
      return m?.[1] ? Math.round(Number(m[1]) / 1024) : NaN;
    },
    stop: async () => {
      nginx.kill("SIGQUIT");
      for (const i of instances) i.server.child.kill("SIGTERM");
      await Promise.all(instances.map((i) => i.server.exited));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
