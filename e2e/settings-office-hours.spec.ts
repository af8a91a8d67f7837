import type { Locator, Page } from "@playwright/test";
import { expect, logInThroughForm, test } from "./support/fixtures";
import { data, shopSite } from "./support/messenger";
import { hoursOpeningIn } from "../lib/apps/testing";
import type { OfficeHoursState } from "../lib/apps/schemas";

// Settings → Office hours, edited from the keyboard. The server's app is shared with the worker's other specs, which
// expect it always open: every test starts and ends that way. The messenger's away line is not opened here: the
// settings-messenger spec narrows the app's allowed origins while it runs (messenger/frame/away.test.ts and the
// heartbeat's API test cover it).

// The browser's clock on UTC, the app's zone, and a 24-hour clock.
test.use({ locale: "en-GB", timezoneId: "UTC" });

const shop = shopSite();
const hoursPath = () => `/api/v2/apps/${shop.m.e2e.admin.appId}/office_hours`;
const alwaysOpen = async () => data(await shop.api.post(hoursPath(), { data: { office_hours: null } }));
const saved = async () => data<OfficeHoursState>(await shop.api.get(hoursPath()));

// After each test, not after all: the shop site's own afterAll closes its API first.
test.beforeEach(alwaysOpen);
test.afterEach(alwaysOpen);

/** Settings → Office hours of the admin's app, through the tab strip; its form. */
async function openOfficeHours(page: Page, admin: { email: string; password: string }): Promise<Locator> {
  await logInThroughForm(page, admin);
  await expect(page).toHaveURL(/\/inbox$/);
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Office hours" }).click();
  await expect(page).toHaveURL(/#office-hours$/);
  const form = page.getByRole("form", { name: "Office hours" });
  await expect(form.getByRole("radio", { name: /^Always open/ })).toBeVisible();
  return form;
}

/**
 * Types a time (hh:mm, 24-hour) into the focused time input, as a person does, in either layout the browser draws
 * it in (Chromium's own language decides, not the page's): the 24-hour digits, which a 12-hour layout reads too
 * (13 is 1 PM), then A or P for its AM/PM field, which a 24-hour layout ignores. Hours 00 and 20 to 23 have no such
 * spelling: a 12-hour hour field takes "2" as 2 and moves on, so "2008P" is 2:00 PM there.
 */
async function typeTime(page: Page, input: Locator, hhmm: string) {
  const hour = Number(hhmm.slice(0, 2));
  if (!typable(hour)) throw new Error(`typeTime: hour ${hour} types differently in 12- and 24-hour layouts`);
  await expect(input).toBeFocused();
  await page.keyboard.type(`${hhmm.replace(":", "")}${hour < 12 ? "A" : "P"}`);
  await expect(input).toHaveValue(hhmm);
}

const typable = (hour: number) => hour >= 1 && hour <= 19;

/** Presses Tab until `target` has the focus: a time input takes a Tab stop per field in some layouts. */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 4 && !(await target.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press("Tab");
  await expect(target).toBeFocused();
}

test.describe("settings: office hours", () => {
  test("hours set from the keyboard are saved and kept after a reload", async ({ page, admin }) => {
    const form = await openOfficeHours(page, admin);
    await expect(page.getByTestId("office-hours-status")).toHaveText(/Open now \(always open\)/);
    await expect(page.getByTestId("office-hours-zone")).toHaveText("UTC");

    // From "Always open" to office hours: arrow keys move through the radio group; weekdays 9 to 5 are ready.
    await form.getByRole("radio", { name: /^Always open/ }).focus();
    await page.keyboard.press("ArrowDown");
    await expect(form.getByRole("radio", { name: /^Set office hours/ })).toBeChecked();
    await expect(form.getByLabel("Monday range 1 start")).toHaveValue("09:00");
    await expect(form.getByRole("checkbox", { name: "Open on Saturday" })).not.toBeChecked();

    // Tuesday: 8:30 to 12:00, then a second range from 13:00 to 17:30 (Add moves the focus into it).
    const tue = (n: number, end: "start" | "end") => form.getByLabel(`Tuesday range ${n} ${end}`);
    await tue(1, "start").focus();
    await typeTime(page, tue(1, "start"), "08:30");
    await tabTo(page, tue(1, "end"));
    await typeTime(page, tue(1, "end"), "12:00");
    await tabTo(page, form.getByRole("button", { name: "Add a range on Tuesday" }));
    await page.keyboard.press("Enter");
    await typeTime(page, tue(2, "start"), "13:00");
    await tabTo(page, tue(2, "end"));
    await typeTime(page, tue(2, "end"), "17:30");

    // Wednesday off; Saturday on, 10:00 to 14:00.
    await form.getByRole("checkbox", { name: "Open on Wednesday" }).focus();
    await page.keyboard.press("Space");
    await expect(form.getByLabel("Wednesday range 1 start")).toHaveCount(0);
    await form.getByRole("checkbox", { name: "Open on Saturday" }).focus();
    await page.keyboard.press("Space");
    await page.keyboard.press("Tab");
    await typeTime(page, form.getByLabel("Saturday range 1 start"), "10:00");
    await tabTo(page, form.getByLabel("Saturday range 1 end"));
    await typeTime(page, form.getByLabel("Saturday range 1 end"), "14:00");

    // A holiday: Add moves the focus into the new date. 12 December: the same keys whether the browser lays the
    // date out day first or month first.
    await form.getByRole("button", { name: "Add a holiday" }).focus();
    await page.keyboard.press("Enter");
    await expect(form.getByLabel("Holiday 1", { exact: true })).toBeFocused();
    await page.keyboard.type("12122026");
    await expect(form.getByLabel("Holiday 1", { exact: true })).toHaveValue("2026-12-12");

    await form.getByRole("button", { name: "Save office hours" }).focus();
    await page.keyboard.press("Enter");
    await expect(form.getByText("Saved.")).toBeVisible();
    const week = [["09:00", "17:00"]];
    expect((await saved()).office_hours).toEqual({
      weekly: {
        mon: week,
        tue: [
          ["08:30", "12:00"],
          ["13:00", "17:30"],
        ],
        thu: week,
        fri: week,
        sat: [["10:00", "14:00"]],
      },
      holidays: ["2026-12-12"],
    });

    await page.reload();
    const again = page.getByRole("form", { name: "Office hours" });
    await expect(again.getByRole("radio", { name: /^Set office hours/ })).toBeChecked();
    await expect(again.getByLabel("Tuesday range 1 start")).toHaveValue("08:30");
    await expect(again.getByLabel("Tuesday range 2 end")).toHaveValue("17:30");
    await expect(again.getByRole("checkbox", { name: "Open on Wednesday" })).not.toBeChecked();
    await expect(again.getByLabel("Saturday range 1 start")).toHaveValue("10:00");
    await expect(again.getByLabel("Holiday 1", { exact: true })).toHaveValue("2026-12-12");
    await expect(page.getByTestId("office-hours-status")).toHaveText(/^(Open now|Closed — opens .+)$/);

    // Removing a range moves the focus to the Add button of its day; removing the holiday, to "Add a holiday".
    await again.getByRole("button", { name: "Remove Tuesday range 2" }).focus();
    await page.keyboard.press("Enter");
    await expect(again.getByRole("button", { name: "Add a range on Tuesday" })).toBeFocused();
    await again.getByRole("button", { name: "Remove holiday 1" }).focus();
    await page.keyboard.press("Enter");
    await expect(again.getByRole("button", { name: "Add a holiday" })).toBeFocused();

    // Back to always open, through the form as well.
    await again.getByRole("radio", { name: /^Set office hours/ }).focus();
    await page.keyboard.press("ArrowUp");
    await again.getByRole("button", { name: "Save office hours" }).click();
    await expect(again.getByText("Saved.")).toBeVisible();
    await expect(page.getByTestId("office-hours-status")).toHaveText(/Open now \(always open\)/);
    expect((await saved()).office_hours).toBeNull();
  });

  test("a range that starts when it ends shows the API's error beside it, and nothing is saved", async ({
    page,
    admin,
  }) => {
    const form = await openOfficeHours(page, admin);
    await form.getByRole("radio", { name: /^Set office hours/ }).check();
    const end = form.getByLabel("Thursday range 1 end");
    await end.focus();
    await typeTime(page, end, "09:00");
    await form.getByRole("button", { name: "Save office hours" }).click();

    await expect(form.getByRole("alert")).toContainText("Could not save the office hours");
    await expect(form.getByRole("alert")).toContainText("office_hours.weekly.thu.0");
    // Under the range too, both its times marked invalid and described by the message.
    const start = form.getByLabel("Thursday range 1 start");
    await expect(start).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Thursday range 1 end")).toHaveAttribute("aria-invalid", "true");
    await expect(start).toHaveAccessibleDescription("must not start and end at the same time");
    await expect(form.getByText("must not start and end at the same time", { exact: true })).toHaveCount(1);
    await expect(form.getByLabel("Friday range 1 start")).not.toHaveAttribute("aria-invalid", "true");
    // What was typed stays, to be corrected; the server kept the old hours.
    await expect(form.getByLabel("Thursday range 1 end")).toHaveValue("09:00");
    expect((await saved()).office_hours).toBeNull();
    await expect(page.getByTestId("office-hours-status")).toHaveText(/Open now \(always open\)/);

    await page.reload();
    await expect(
      page.getByRole("form", { name: "Office hours" }).getByRole("radio", { name: /^Always open/ }),
    ).toBeChecked();
  });

  test("hours that leave out now: closed, and the API says when the team is back", async ({
    page,
    admin,
  }) => {
    const form = await openOfficeHours(page, admin);
    // Only one hour a week, at least two hours from now (UTC, the app's zone), at the first hour whose start and end
    // typeTime can type in either layout.
    const hour = 3_600_000;
    let inHours = 2;
    while (![0, 1].every((h) => typable(new Date(Date.now() + (inHours + h) * hour).getUTCHours())))
      inHours++;
    const later = hoursOpeningIn(inHours * hour);
    const [from, to] = later.range;
    await form.getByRole("radio", { name: /^Set office hours/ }).check();
    const days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
    const day = days[["mon", "tue", "wed", "thu", "fri", "sat", "sun"].indexOf(later.weekday)]!;
    for (const d of days) {
      const box = form.getByRole("checkbox", { name: `Open on ${d}` });
      if ((d === day) !== (await box.isChecked())) await box.press("Space");
    }
    await form.getByLabel(`${day} range 1 start`).focus();
    await typeTime(page, form.getByLabel(`${day} range 1 start`), from);
    await tabTo(page, form.getByLabel(`${day} range 1 end`));
    await typeTime(page, form.getByLabel(`${day} range 1 end`), to);
    await form.getByRole("button", { name: "Save office hours" }).click();
    await expect(form.getByText("Saved.")).toBeVisible();

    await expect(page.getByTestId("office-hours-status")).toHaveText(/^Closed — opens /);
    expect(await saved()).toMatchObject({
      office_hours: later.hours,
      open_now: false,
      opens_at: later.opensAt.toISOString(),
    });
  });
});
