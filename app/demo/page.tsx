import type { Metadata } from "next";
import { readDemoKey } from "./demo-key";

export const metadata: Metadata = { title: "Demo shop" };
// The key is read from this server's database at each request (it can be regenerated in Settings).
export const dynamic = "force-dynamic";

const PRODUCTS = [
  { name: "Linen shirt", price: "$48", tone: "bg-amber-100" },
  { name: "Canvas tote", price: "$22", tone: "bg-emerald-100" },
  { name: "Wool beanie", price: "$19", tone: "bg-sky-100" },
  { name: "Leather wallet", price: "$55", tone: "bg-rose-100" },
  { name: "Cotton socks", price: "$9", tone: "bg-violet-100" },
  { name: "Rain jacket", price: "$120", tone: "bg-lime-100" },
];

/**
 * A small shop page, public (no login), that embeds the messenger as a customer's site would: the snippet with
 * the demo app's public key. Open it in one tab and /inbox in another to see both sides of a conversation.
 */
export default async function DemoShop() {
  const key = await readDemoKey();
  return (
    <div className="min-h-dvh bg-white text-slate-900">
      <header className="border-b border-slate-200">
        <div className="mx-auto flex max-w-5xl items-center justify-between px-6 py-4">
          <span className="text-lg font-semibold tracking-tight">Northwind Goods</span>
          <nav className="flex gap-6 text-sm text-slate-600" aria-label="Shop">
            <a href="#products">Shop</a>
            <a href="#about">About</a>
          </nav>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-10">
        <section className="rounded-2xl bg-slate-50 px-8 py-12">
          <h1 className="text-3xl font-semibold tracking-tight">Everyday things, made well.</h1>
          <p className="mt-3 max-w-xl text-slate-600">
            This is a demo shop. The chat button in the corner is Relay&apos;s messenger: write to the team,
            then answer from the Inbox of the panel in another tab.
          </p>
          {!key && (
            <p role="alert" className="mt-4 text-sm text-amber-700">
              No demo workspace on this server (it is made on the first start of an empty database), so the
              messenger is not shown.
            </p>
          )}
        </section>
        <section id="products" className="mt-10" aria-labelledby="products-title">
          <h2 id="products-title" className="text-xl font-semibold">
            Products
          </h2>
          <ul className="mt-4 grid grid-cols-2 gap-6 sm:grid-cols-3">
            {PRODUCTS.map((p) => (
              <li key={p.name} className="rounded-xl border border-slate-200 p-4">
                <div className={`aspect-square rounded-lg ${p.tone}`} aria-hidden="true" />
                <p className="mt-3 font-medium">{p.name}</p>
                <p className="text-sm text-slate-600">{p.price}</p>
              </li>
            ))}
          </ul>
        </section>
        <section id="about" className="mt-12 text-sm text-slate-600">
          <p>Free shipping over $50. Returns within 30 days.</p>
        </section>
      </main>
      {key && <script async src="/messenger.js" data-key={key} />}
    </div>
  );
}
