/** The statuses `keyward` exits with; docs/operations.md lists them for scripts. */
export const EXIT_CODES = {
  ok: 0,
  /** The command failed at run time. */
  failure: 1,
  /** `plan --exit-code`: some object would change (as `terraform plan -detailed-exitcode` and `diff` do). */
  changes: 2,
  /**
   * `plan --exit-code`: some object's reconcile would fail (a read or a step refused, an invalid spec), so it
   * would not converge; this wins over `changes`.
   */
  fails: 3,
  /** Unknown command or option, or an invalid value: nothing was attempted (EX_USAGE of sysexits.h). */
  usage: 64,
} as const;
