package childproc

import (
	"os/exec"
	"sync"
	"syscall"
	"unsafe"
)

// On Windows a server dies with its host however the host dies: every
// server is put in one job object of the process, made with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE. The job's only handle is the
// host's, which Windows closes when the host ends, however it ends, and
// closing it kills every process in the job — the servers and the
// processes they started since, which belong to the job too. A process a
// server starts in the instant before the server joins the job is not in
// it. Where the job cannot be made or joined (a host in a job that
// forbids it), servers start as before, and stop only when Close stops
// them.

var (
	kernel32               = syscall.NewLazyDLL("kernel32.dll")
	procCreateJobObject    = kernel32.NewProc("CreateJobObjectW")
	procSetInformationJob  = kernel32.NewProc("SetInformationJobObject")
	procAssignProcessToJob = kernel32.NewProc("AssignProcessToJobObject")
	serverJob              syscall.Handle // 0 if it could not be made
	serverJobOnce          sync.Once
)

const (
	jobObjectExtendedLimitInformation = 9
	jobObjectLimitKillOnJobClose      = 0x2000
	processSetQuota                   = 0x0100
	processTerminate                  = 0x0001
)

// jobBasicLimits is JOBOBJECT_BASIC_LIMIT_INFORMATION.
type jobBasicLimits struct {
	PerProcessUserTimeLimit int64
	PerJobUserTimeLimit     int64
	LimitFlags              uint32
	MinimumWorkingSetSize   uintptr
	MaximumWorkingSetSize   uintptr
	ActiveProcessLimit      uint32
	Affinity                uintptr
	PriorityClass           uint32
	SchedulingClass         uint32
}

// jobExtendedLimits is JOBOBJECT_EXTENDED_LIMIT_INFORMATION.
type jobExtendedLimits struct {
	Basic                 jobBasicLimits
	IoInfo                [6]uint64 // IO_COUNTERS
	ProcessMemoryLimit    uintptr
	JobMemoryLimit        uintptr
	PeakProcessMemoryUsed uintptr
	PeakJobMemoryUsed     uintptr
}

// makeServerJob makes the job that kills its processes when the host's
// handle to it closes; 0 if it cannot.
func makeServerJob() syscall.Handle {
	h, _, _ := procCreateJobObject.Call(0, 0)
	if h == 0 {
		return 0
	}
	info := jobExtendedLimits{Basic: jobBasicLimits{LimitFlags: jobObjectLimitKillOnJobClose}}
	ok, _, _ := procSetInformationJob.Call(h, jobObjectExtendedLimitInformation, uintptr(unsafe.Pointer(&info)), unsafe.Sizeof(info))
	if ok == 0 {
		syscall.CloseHandle(syscall.Handle(h))
		return 0
	}
	return syscall.Handle(h)
}

// startLinked starts cmd and puts it in the server job.
func startLinked(cmd *exec.Cmd) (release func(), err error) {
	serverJobOnce.Do(func() { serverJob = makeServerJob() })
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if serverJob != 0 {
		if p, err := syscall.OpenProcess(processSetQuota|processTerminate, false, uint32(cmd.Process.Pid)); err == nil {
			procAssignProcessToJob.Call(uintptr(serverJob), uintptr(p))
			syscall.CloseHandle(p)
		}
	}
	return func() {}, nil
}
