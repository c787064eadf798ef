import RemotionHostLogic
import Testing

/// `--gamepad` refuses to start on a kernel whose virtual DualSense would get no driver.
@Suite struct DualSenseDriverCheckTests {
    @Test func loadedBuiltInOrAModuleUdevCanLoadIsEnough() {
        #expect(DualSenseDriverFacts(release: "6.1.0-28-amd64", registered: true).problem == nil)
        #expect(DualSenseDriverFacts(release: "6.1.0-28-amd64", registered: false, builtIn: true).problem == nil)
        #expect(DualSenseDriverFacts(release: "6.1.0-28-amd64", registered: false,
                                     moduleFile: "/lib/modules/6.1.0-28-amd64/kernel/drivers/hid/hid-playstation.ko").problem == nil)
    }

    @Test func noneOfThemIsOneLineWithTheFix() throws {
        let problem = try #require(DualSenseDriverFacts(release: "6.18.44-fc", registered: false).problem)
        #expect(!problem.contains("\n"))
        #expect(problem.contains("(6.18.44-fc) has no hid-playstation driver"))
        #expect(problem.contains("sudo modprobe hid-playstation") && problem.contains("CONFIG_HID_PLAYSTATION"))
    }

    @Test func modulesBuiltinIsReadByPath() {
        #expect(DualSenseDriverFacts.isBuiltIn(modulesBuiltin: "kernel/drivers/hid/hid-generic.ko\nkernel/drivers/hid/hid-playstation.ko\n"))
        #expect(!DualSenseDriverFacts.isBuiltIn(modulesBuiltin: "kernel/drivers/hid/hid-playstation-extra.ko\nkernel/drivers/hid/hid-sony.ko"))
    }

    @Test func doctorWarnsOnlyWhenItIsMissing() {
        #expect(DoctorChecks.dualSenseDriver(DualSenseDriverFacts(release: "r", registered: true)).status == .pass)
        let missing = DoctorChecks.dualSenseDriver(DualSenseDriverFacts(release: "r", registered: false))
        #expect(missing.status == .warn && missing.message.hasPrefix("only --gamepad needs it"))
    }
}
