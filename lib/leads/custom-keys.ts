import { Prisma } from "../db/generated/client";
import type { Queryable } from "../db/sql";
import { valuesContaining, walkOnce, type KeyWalks } from "./compile-system";
import type { Condition, Group } from "./filters";

/**
 * The most distinct values of a custom prop walked to answer a contains from them (below); past it, `strpos` on
 * every row of the prop. Each value is one descent of user_prop_values_txt_idx.
 */
export const MAX_CUSTOM_KEYS = 256;

function* conditionsOf(g: Group): Generator<Condition> {
  for (const item of g.items) {
    if (item.kind === "group") yield* conditionsOf(item);
    else yield item;
  }
}

/**
 * Custom text contains and does-not-contain from the prop's distinct values, where the app has few (a plan, a
 * status, an industry): the values containing the text are found first, by a walk of user_prop_values_txt_idx from
 * one value to the next (a skip scan), and the condition becomes `txt = ANY` of them (compile-custom.ts), an
 * index-only range per value, where `strpos` read every row of the prop (174k `company` rows at 1M, for 5.8k that
 * contain "dyne"). Sets each such condition's `keys`; a prop with more than `upTo` values keeps `strpos`. The values
 * are every user's, a superset of any leads'. Conditions inside a named segment are compiled later and keep `strpos`.
 */
export async function resolveCustomKeys(
  db: Pick<Queryable, "$queryRaw">,
  appId: bigint,
  root: Group,
  walks: KeyWalks,
  upTo = MAX_CUSTOM_KEYS,
): Promise<void> {
  const walked: Promise<void>[] = [];
  for (const c of conditionsOf(root)) {
    if (c.prop.kind !== "custom" || c.value.kind !== "string") continue;
    if (c.type !== "str_contains" && c.type !== "str_ncontains") continue;
    const [key, text] = [c.prop.name, c.value.s];
    const values = walkOnce(walks, `${appId}/custom/${upTo}/${key}/${text}`, () =>
      valuesContaining(db, {
        from: Prisma.sql`user_prop_values v`,
        rows: Prisma.sql`v.app_id = ${appId} AND v.key = ${key}::text AND v.txt IS NOT NULL`,
        key: Prisma.sql`v.txt`,
        text: Prisma.sql`lower(${text}::text)`,
        upTo,
      }),
    );
    walked.push(values.then((keys) => void (c.keys = keys ?? undefined)));
  }
  await Promise.all(walked);
}
