"use client";

import { useContext } from "react";
import { CurrentAppContext, type CurrentAppValue } from "./current-app";

/** The app the panel is showing (pass `app.id` as the `app` parameter of reads). Only inside the panel. */
export function useCurrentApp(): CurrentAppValue {
  const value = useContext(CurrentAppContext);
  if (!value) throw new Error("useCurrentApp must be used inside the panel (CurrentAppProvider)");
  return value;
}
