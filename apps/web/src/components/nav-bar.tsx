import Link from "next/link";
import { NavLink } from "./nav-link";
import { TokenForm } from "./token-form";

/** Pages in the top bar. Later pages (runs, trajectories, benchmarks) go here. */
const NAV_ITEMS = [
  { href: "/", label: "Overview" },
  { href: "/jobs", label: "Jobs" },
  { href: "/sandboxes", label: "Sandboxes" },
  { href: "/backends", label: "Backends" },
  { href: "/runs", label: "Runs" },
  { href: "/trajectories", label: "Trajectories" },
  { href: "/benchmarks", label: "Benchmarks" },
  { href: "/environments", label: "Environments" },
] as const;

export function NavBar() {
  return (
    <header className="nav-bar">
      <Link href="/" className="brand">
        RaaS
      </Link>
      <nav aria-label="Main">
        <ul className="nav-items">
          {NAV_ITEMS.map((item) => (
            <li key={item.href}>
              <NavLink href={item.href} label={item.label} />
            </li>
          ))}
        </ul>
      </nav>
      <TokenForm />
    </header>
  );
}
