// Import boundaries, checked by `npm run boundaries` (issue #15). Folder-level cycles, which dependency-cruiser's
// file-level no-circular does not see, are checked by scripts/folder-cycles.ts in the same script.
// Known violations (.dependency-cruiser-known-violations.json) are tolerated by `--ignore-known`, new ones fail;
// regenerate it only to shrink it: `npx depcruise <the paths of npm run boundaries> --config .dependency-cruiser.mjs
// --output-type baseline > .dependency-cruiser-known-violations.json`.

/** Tests, test support and the benchmark may import anything they exercise. */
const TESTS =
  "\\.test\\.tsx?$|\\.spec\\.tsx?$|^e2e/|^bench/|^deploy/|^lib/testing/|^lib/[^/]+/testing\\.ts$|^lib/[^/]+/test-[a-z-]+\\.ts$";
/** A domain's HTTP files: endpoint files (one naming rule: endpoints.ts or endpoints-<resource>.ts) and schemas. */
const ENDPOINT_FILES = "^lib/[^/]+/endpoints\\.ts$|^lib/[^/]+/endpoints-[a-z0-9-]+\\.ts$";
/** The socket.io edge: handshake, subscribe and acks, the socket counterpart of endpoint(). */
const SOCKET_EDGE = "^lib/realtime/io\\.ts$";
const HTTP_FILES = `${ENDPOINT_FILES}|^lib/[^/]+/schemas\\.ts$|${SOCKET_EDGE}`;

export default {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import cycles between files (cycles between lib/* folders: scripts/folder-cycles.ts).",
      from: { pathNot: TESTS },
      to: { circular: true },
    },
    {
      name: "ui-not-server",
      severity: "error",
      comment:
        "Pages, components and lib/client run (or may run) in the browser: never the database, the server runtime " +
        "or the composition. Route handlers and server actions under app/ are the server's.",
      from: {
        path: ["^(components|lib/client)/", "^app/.*(page|layout|template|loading|error|not-found)\\.tsx$"],
      },
      to: { path: "^lib/(db|server|compose)/", pathNot: "^lib/compose/catalog\\.ts$" },
    },
    {
      name: "ui-not-composition",
      severity: "error",
      comment:
        "Components and lib/client never import the catalog or the server start-up (the /docs page renders the " +
        "catalog on the server, so pages may read lib/compose/catalog.ts).",
      from: { path: "^(components|lib/client)/" },
      to: { path: "^lib/compose/" },
    },
    {
      name: "services-not-http-edge",
      severity: "error",
      comment:
        "Services never import the HTTP edge (lib/api): only a domain's endpoint files and schemas.ts do, the " +
        "socket edge, the composition and the reference's model (lib/docs). Errors services throw come from lib/domain, the shapes of the API they " +
        "build (zod pieces, Serialized) from lib/contract, neither of which knows HTTP.",
      from: { path: "^lib/", pathNot: `${TESTS}|${HTTP_FILES}|^lib/(api|compose|client|docs)/` },
      to: { path: "^lib/api/" },
    },
    {
      name: "domain-and-contract-neutral",
      severity: "error",
      comment:
        "lib/domain (errors, keyset, JSON) and lib/contract (the API's shared zod pieces) are imported by the edge, " +
        "the services and the browser alike, so they import nothing of the project but each other.",
      from: { path: "^lib/(domain|contract)/", pathNot: TESTS },
      to: { path: "^(lib|app|components|cli|scripts)/", pathNot: "^lib/(domain|contract)/" },
    },
    {
      name: "endpoints-named-one-way",
      severity: "error",
      comment:
        "Endpoints are declared (endpoint() from lib/api/endpoint.ts) in endpoint files only: " +
        "lib/<folder>/endpoints.ts or lib/<folder>/endpoints-<resource>.ts, never in a folder of their own.",
      from: { path: "^lib/", pathNot: `${TESTS}|${ENDPOINT_FILES}|^lib/api/` },
      to: { path: "^lib/api/endpoint\\.ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "docs-model-for-the-reference",
      severity: "error",
      comment:
        "lib/docs (the reference's model, read from the catalog and the OpenAPI document) is the /docs pages' own: " +
        "only app/docs and tests import it.",
      from: { pathNot: `${TESTS}|^app/docs/|^lib/docs/` },
      to: { path: "^lib/docs/" },
    },
    {
      name: "product-not-test-support",
      severity: "error",
      comment: "The product never imports test support (lib/testing/, */testing.ts).",
      from: { pathNot: TESTS },
      to: { path: "^lib/testing/|^lib/[^/]+/testing\\.ts$" },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/|^lib/db/generated/|^\\.next" },
    cache: false,
  },
};
