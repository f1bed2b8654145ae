// A small list of common US first and last names (SSA and Census top names), lower case, and the names that are
// also ordinary English words (only taken with a cue or next to another name).
export const FIRST_NAMES = new Set(`
james john robert michael william david richard joseph thomas charles christopher daniel matthew anthony mark donald
steven paul andrew joshua kenneth kevin brian george timothy ronald edward jason jeffrey ryan jacob gary nicholas eric
jonathan stephen larry justin scott brandon benjamin samuel gregory alexander frank patrick raymond jack dennis jerry
tyler aaron jose adam nathan henry douglas zachary peter kyle ethan walter noah jeremy christian keith roger terry
gerald harold sean austin carl arthur lawrence dylan jesse jordan bryan billy joe bruce gabriel logan albert willie
alan juan wayne elijah randy roy vincent ralph eugene russell bobby mason philip louis luis carlos miguel antonio
mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty margaret sandra ashley
kimberly emily donna michelle carol amanda dorothy melissa deborah stephanie rebecca sharon laura cynthia kathleen
amy angela shirley anna brenda pamela emma nicole helen samantha katherine christine debra rachel carolyn janet
catherine maria heather diane ruth julie olivia joyce virginia victoria kelly lauren christina joan evelyn judith
megan andrea cheryl hannah jacqueline martha gloria teresa ann sara madison frances kathryn janice jean abigail alice
judy sophia denise amber doris marilyn danielle beverly isabella theresa diana natalie brittany charlotte marie
kayla alexis lori tiffany alexandra colleen jakobine lilly lily mia chloe ava grace zoe hailey emma jasmine leah
tracy kristin lauren jessie jim tom mike bob bill dave steve chris matt dan tony nick sam ben joe ted ed alex kate
katie liz beth jen jenny jess meg becky sue susie cathy kathy pat patty
`.trim().split(/\s+/));

export const LAST_NAMES = new Set(`
smith johnson williams brown jones garcia miller davis rodriguez martinez hernandez lopez gonzalez wilson anderson
thomas taylor moore jackson martin lee perez thompson white harris sanchez clark ramirez lewis robinson walker young
allen king wright scott torres nguyen hill flores green adams nelson baker hall rivera campbell mitchell carter
roberts gomez phillips evans turner diaz parker cruz edwards collins reyes stewart morris morales murphy cook rogers
gutierrez ortiz morgan cooper peterson bailey reed kelly howard ramos kim cox ward richardson watson brooks chavez
wood james bennett gray mendoza ruiz hughes price alvarez castillo sanders patel myers long ross foster jimenez
powell jenkins perry russell sullivan bell coleman butler henderson barnes gonzales fisher vasquez simmons romero
jordan patterson alexander hamilton graham reynolds griffin wallace west cole hayes bryant herrera gibson ellis
tran medina aguilar stevens murray ford castro marshall owens harrison fernandez mcdonald woods washington kennedy
wells vargas henry chen freeman webb tucker guzman burns crawford olson simpson porter hunter gordon mendez silva
shaw snyder mason dixon munoz hunt hicks holmes palmer wagner black robertson boyd rose stone salazar fox warren
mills meyer rice schmidt garza daniels ferguson nichols stephens soto weaver ryan gardner payne grant dunn kelley
spencer hawkins arnold pierce vazquez hansen peters santos hart bradley knight elliott cunningham duncan armstrong
hudson carroll lane riley andrews alvarado ray delgado berry perkins hoffman johnston matthews pena richards
willis carpenter lawrence sandoval connor wiley solomon
`.trim().split(/\s+/));

/** Names that are also common words: never taken on their own in lower-case (ASR) text. */
export const AMBIGUOUS = new Set(`
will mark bill rose grace may june april hope joy faith art frank summer young king brown green white black long
hall wood rich sandy dawn ray jack chase hunter carter price bell fox miles august lane dean penny holly ruby
crystal amber autumn pat sue don guy drew jean page wade cole gene chance king stone rice hill mills west ford
long cook park wells hunt grant dunn hart knight berry parker reed gray ward brooks perry bush banks day love may
sam joe ben dan ted ed tom jim bob mike nick matt chris alex kate beth liz jordan christian will virginia georgia
carol marie lee sharon ann jose joan martin kelly morgan taylor ryan terry henry james thomas jackson scott allen
washington lily lilly olive pearl iris violet gary carl roger
`.trim().split(/\s+/));
