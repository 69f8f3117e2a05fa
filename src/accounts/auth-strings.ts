// The translated strings of the account islands (islands do not load i18next), carried once per
// page in a JSON block. Built on the server from the request's `t`, so every island speaks the
// page's language.
import type { TFunction } from "i18next";
import { perLocale } from "~/i18n/memo.ts";
import { PASSWORD_MIN } from "./account-rules.ts";
import { readJsonBlock } from "~/islands/json-block.ts";

/** Built once per locale (src/i18n/memo.ts): every page header carries them. */
export const authStrings = perLocale((t: TFunction) => {
  const k = (key: string, values?: Record<string, string | number>) => t(`auth:${key}`, values ?? {});
  return {
    field: {
      required: k("field.required"),
      showPassword: k("field.showPassword"),
      hidePassword: k("field.hidePassword"),
      passwordCharacters: k("field.passwordCharacters"),
      passwordShort: k("field.passwordShort", { minimum: PASSWORD_MIN }),
      usernameRule: k("field.usernameRule"),
      emailInvalid: k("field.emailInvalid"),
      firstNameLong: k("field.firstNameLong", { maximum: 30 }),
    },
    error: { default: k("error.default"), throttled: k("error.throttled"), offline: k("error.offline"), formProblems: k("error.formProblems") },
    login: {
      heading: k("login.heading"),
      usernameOrEmail: k("login.usernameOrEmail"),
      password: k("login.password"),
      submit: k("login.submit"),
      submitting: k("login.submitting"),
      noAccount: k("login.noAccount"),
      toSignup: k("login.toSignup"),
      mfaHeading: k("login.mfaHeading"),
      mfaHelp: k("login.mfaHelp"),
      mfaCode: k("login.mfaCode"),
      mfaSubmit: k("login.mfaSubmit"),
      mfaInvalid: k("login.mfaInvalid"),
      back: k("login.back"),
      sessionEnded: k("login.sessionEnded", { username: "{{username}}" }),
    },
    signup: {
      heading: k("signup.heading"),
      subheading: k("signup.subheading"),
      email: k("signup.email"),
      password: k("signup.password"),
      passwordHint: k("signup.passwordHint"),
      username: k("signup.username"),
      firstName: k("signup.firstName"),
      lastName: k("signup.lastName"),
      birthday: k("signup.birthday"),
      business: k("signup.business"),
      businessName: k("signup.businessName"),
      submit: k("signup.submit"),
      submitting: k("signup.submitting"),
      haveAccount: k("signup.haveAccount"),
      toLogin: k("signup.toLogin"),
      ageRestricted: k("signup.ageRestricted"),
      emailTaken: k("signup.emailTaken"),
      usernameTaken: k("signup.usernameTaken"),
      noToken: k("signup.noToken"),
      humanCheck: k("signup.humanCheck"),
      humanCheckNeeded: k("signup.humanCheckNeeded"),
    },
    modal: { close: k("modal.close"), loginLabel: k("modal.loginLabel"), signupLabel: k("modal.signupLabel") },
    header: {
      logIn: k("header.logIn"),
      signUp: k("header.signUp"),
      menu: k("header.menu"),
      accounts: k("header.accounts"),
      current: k("header.current"),
      switchTo: k("header.switchTo", { name: "{{name}}" }),
      business: k("header.business"),
      addAccount: k("header.addAccount"),
      settings: k("header.settings"),
      businessHub: k("header.businessHub"),
      logOut: k("header.logOut"),
      switching: k("header.switching"),
      logInAgain: k("header.logInAgain"),
      logInAgainAs: k("header.logInAgainAs", { name: "{{name}}" }),
      limitedPrompt: k("header.limitedPrompt"),
      finishLogin: k("header.finishLogin"),
    },
    save: { button: k("save.button"), loginToSave: k("save.loginToSave"), ready: k("save.ready"), readyComment: k("save.readyComment") },
  };
});
export type AuthStrings = ReturnType<typeof authStrings>;

/** Fills {{name}}-style slots left in a string for the browser to complete. */
export const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (match, name: string) => values[name] ?? match);

/**
 * Pages with script carry the strings once, in a JSON block (Base.astro), rather than once per
 * island in its props: the header's and a pin's Save modal would each repeat them, and the
 * signed-in account menu (which reads them through src/i18n/page-strings.ts) would too. The
 * log-in islands need them only once a dialog opens, in the browser.
 */
export const AUTH_STRINGS_ID = "pinloom-auth-strings";

let fromPage: AuthStrings | null | undefined;

/** The page's strings block, parsed once; null when the page has none or it is damaged. */
export function pageAuthStrings(doc: Document | undefined = typeof document === "undefined" ? undefined : document): AuthStrings | null {
  if (fromPage !== undefined) return fromPage;
  fromPage = readJsonBlock(doc, AUTH_STRINGS_ID) as AuthStrings | null;
  return fromPage;
}
