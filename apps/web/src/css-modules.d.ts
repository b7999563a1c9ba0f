// CSS Modules: Next (and Vite in tests) turn each `*.module.css` into a map of scoped class names.
declare module "*.module.css" {
  const classes: Readonly<Record<string, string>>;
  export default classes;
}
