"use client";

import { createContext, useCallback, useMemo, useState, type ReactNode } from "react";
import type { AppInfo } from "./api";

export interface CurrentAppValue {
  /** The app the panel is showing; null when the operator belongs to no app. */
  app: AppInfo | null;
  apps: AppInfo[];
  setAppId: (id: string) => void;
}

export const CurrentAppContext = createContext<CurrentAppValue | null>(null);

const STORAGE_KEY = "relay.currentApp";

function readStored(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Holds the current app (remembered per browser); the first of the operator's apps by default. */
export function CurrentAppProvider({ apps, children }: { apps: AppInfo[]; children: ReactNode }) {
  const [chosen, setChosen] = useState<string | null>(() =>
    typeof window === "undefined" ? null : readStored(),
  );
  const setAppId = useCallback((id: string) => {
    setChosen(id);
    try {
      window.localStorage.setItem(STORAGE_KEY, id);
    } catch {
      // private mode: remember for this page only
    }
  }, []);
  const value = useMemo<CurrentAppValue>(() => {
    const app = apps.find((a) => String(a.id) === chosen) ?? apps[0] ?? null;
    return { app, apps, setAppId };
  }, [apps, chosen, setAppId]);
  return <CurrentAppContext.Provider value={value}>{children}</CurrentAppContext.Provider>;
}
