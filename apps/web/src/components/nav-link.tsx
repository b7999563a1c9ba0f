"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** A top-bar link, marked current on its page and the pages below it. */
export function NavLink({ href, label }: { href: string; label: string }) {
  const pathname = usePathname();
  const isCurrent = href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link href={href} className="nav-link" aria-current={isCurrent ? "page" : undefined}>
      {label}
    </Link>
  );
}
