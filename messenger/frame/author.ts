import { h } from "./dom";

/** An operator's name and avatar (their initial without one), above their messages. */
export function authorOf(admin: { name: string; avatar: string }) {
  const initial = admin.name.trim().charAt(0).toUpperCase() || "?";
  return h(
    "div",
    { class: "author" },
    admin.avatar
      ? h("img", { class: "avatar", src: admin.avatar, alt: "" })
      : h("span", { class: "avatar", "aria-hidden": "true" }, initial),
    h("span", { class: "small" }, admin.name),
  );
}
