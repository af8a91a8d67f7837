import type { Metadata, Viewport } from "next";
import { QueryProvider } from "@/lib/client/query-provider";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Relay", template: "%s · Relay" },
  description: "Customer messaging",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#f8fafc" };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <QueryProvider>{children}</QueryProvider>
      </body>
    </html>
  );
}
