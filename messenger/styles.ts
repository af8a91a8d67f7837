/**
 * Adds CSS to the launcher's Shadow DOM (the loader's own, and later the news chunk's). A constructed sheet is not
 * an inline <style>, so a host page whose CSP forbids inline styles still shows it; a <style> where there is none.
 */
export function addStyles(root: ShadowRoot, css: string): void {
  // Browsers gained adoptedStyleSheets and replaceSync together (TypeScript's DOM types assume both).
  if ((root as Partial<ShadowRoot>).adoptedStyleSheets) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } else {
    const style = document.createElement("style");
    style.textContent = css;
    root.append(style);
  }
}
