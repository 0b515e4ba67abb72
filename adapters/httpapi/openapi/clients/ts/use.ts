// A tiny use of the generated types, for `tsc --noEmit`: if the generator's
// output stops naming what a client reads, this stops compiling.
import type { components, paths } from "./costdb";

type Login =
  paths["/api/v1/login/authenticate_user"]["post"]["responses"]["200"]["content"]["application/json"];
type Composition = components["schemas"]["V1Composition"];

export function token(answer: Login): string {
  return answer.auth_token;
}

export function codeOf(c: Composition): string {
  return c.code;
}

// An operation that does not exist must not compile.
// @ts-expect-error
type Missing = paths["/api/v1/no-such-path"];
