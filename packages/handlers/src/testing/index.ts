export { codeUnittestForgeries, type Forgery, slugkitForgeries, tinystatsForgeries } from "./forgery-corpus";
