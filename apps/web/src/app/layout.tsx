import type { Metadata } from "next";
import type { ReactNode } from "react";
import { NavBar } from "../components/nav-bar";
import { Providers } from "../components/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "RaaS", template: "%s · RaaS" },
  description: "Rollout-as-a-Service dashboard: stage queues, throughput and jobs.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <NavBar />
          <main className="page">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
