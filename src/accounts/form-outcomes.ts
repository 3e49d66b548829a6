// How a service refuses what a form asked for, without HTTP: the pages map each kind to a status.

/** Why a form was refused. `field` names the input to highlight. */
export interface FormProblem {
  kind: 'invalid' | 'unauthorized' | 'limited';
  field?: 'email' | 'password' | 'name';
  message: string;
}

export type Outcome<T> = ({ ok: true } & T) | { ok: false; problem: FormProblem };

export const fail = (problem: FormProblem): { ok: false; problem: FormProblem } => ({ ok: false, problem });
